import Foundation
import InjectableKit
import InjectableTesting
import XCTest

extension Injections {
    var xctestLeakClock: any Clock { SystemClock() }
    var xctestLiveOnlyClock: any Clock { liveOnly(SystemClock()) }
    var xctestDetachedClock: any Clock { shared(SystemClock()) }
    var xctestClocks: Contributions<any Clock> { cached(contributions(to: \.xctestClocks)) }
}

/// An XCTest case that changes the global overrides fails, unless it saves and restores them
/// around the change with `push()` and `pop()`, as Factory's XCTest suites do. Each test runs a
/// probe case of its own and reads its run's failures; the key is this file's own.
final class GlobalChangeXCTestTests: XCTestCase {
    final class Probe: XCTestCase {
        override var testRunClass: AnyClass? { QuietRun.self }
    }

    func testAGlobalRegisterInAnXCTestCaseFailsIt() {
        let line = #line + 2
        let probe = Probe(name: "leaks") { _ in
            Injections.container.register(\.xctestLeakClock) { FixedClock(now: "leak") }
            Injections.container.reset(\.xctestLeakClock)
        }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 2, "the probe's failures: 2")
        // Each at the test's own call, not in the library.
        let file = "InjectableTestingTests/GlobalChangeXCTestTests.swift"
        expectAfterProbe(
            (probe.testRun as? QuietRun)?.locations == ["\(file):\(line)", "\(file):\(line + 1)"],
            "the failures at the register and the reset")
    }

    func testChangesBetweenPushAndPopAreNotReported() {
        let probe = Probe(name: "pushed") { _ in
            Injections.container.push()
            Injections.container.register(\.xctestLeakClock) { FixedClock(now: "saved") }
            Injections.container.pop()
        }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 0, "the probe's failures: 0")
        expectAfterProbe(
            Injections.container.resolve(\.xctestLeakClock).now == "live", "restored by pop()")
    }
}

extension XCTestCase {
    /// Records a failure of this case unless `holds`. After a probe case has run, XCTest has no
    /// current case, and `XCTAssert` would record nothing.
    func expectAfterProbe(
        _ holds: Bool, _ claim: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard !holds else { return }
        recordFailure(
            withDescription: "Expected: \(claim)", inFile: "\(file)", atLine: Int(line),
            expected: true)
    }
}

/// A `liveOnly` key reached without an override, or another mistake the library can go on
/// from, in an `InjectableTestCase` test or a plain `XCTestCase`, fails that test, and the run
/// goes on.
final class LiveOnlyXCTestTests: XCTestCase {
    final class Probe: InjectableTestCase {
        override var testRunClass: AnyClass? { QuietRun.self }
    }

    final class PlainProbe: XCTestCase {
        override var testRunClass: AnyClass? { QuietRun.self }
    }

    func testALiveOnlyKeyReachedInAPlainXCTestCaseFailsItAtTheResolution() {
        let line = #line + 2
        let probe = PlainProbe(name: "plainLiveOnly") { _ in
            _ = Injections.container.resolve(\.xctestLiveOnlyClock)
        }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
        expectAfterProbe(
            (probe.testRun as? QuietRun)?.locations
                == ["InjectableTestingTests/GlobalChangeXCTestTests.swift:\(line)"],
            "the failure at the resolution")
    }

    func testALiveOnlyKeyInjectedInAPlainXCTestCaseFailsItAtTheDeclaration() {
        struct Owner {
            @Injectable(\.xctestLiveOnlyClock) var clock
        }
        let line = #line - 2
        let probe = PlainProbe(name: "injectedLiveOnly") { _ in _ = Owner() }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
        expectAfterProbe(
            (probe.testRun as? QuietRun)?.locations
                == ["InjectableTestingTests/GlobalChangeXCTestTests.swift:\(line)"],
            "the failure at the property's declaration")
    }

    func testAContributionOutsideTheHookInAPlainXCTestCaseFailsItAtTheCall() {
        let line = #line + 2
        let probe = PlainProbe(name: "contribution") { _ in
            Injections.container.contribute(\.xctestLeakClock, to: \.xctestClocks)
        }
        probe.run()
        let run = probe.testRun as? QuietRun
        expectAfterProbe(run?.failures.first?.contains("was made outside") == true, "the failure")
        expectAfterProbe(
            run?.locations == ["InjectableTestingTests/GlobalChangeXCTestTests.swift:\(line)"],
            "the failure at the contribution")
    }

    func testAResolutionInAThreadALayeredCaseStartedFailsThatCaseAtItsEnd() {
        final class OverridingProbe: InjectableTestCase {
            override var testRunClass: AnyClass? { QuietRun.self }
            override func registerOverrides(_ injections: Injections) {
                injections.register(\.xctestDetachedClock) { FixedClock(now: "mock") }
            }
        }
        nonisolated(unsafe) var seen: [String] = []
        let probe = OverridingProbe(name: "detached") { _ in
            for _ in 0..<2 {  // reported once per key
                let done = DispatchSemaphore(value: 0)
                Thread {
                    seen.append(Injections.container.resolve(\.xctestDetachedClock).now)
                    done.signal()
                }.start()
                done.wait()
            }
        }
        probe.run()
        expectAfterProbe(seen == ["live", "live"], "the thread got the live value")
        let run = probe.testRun as? QuietRun
        expectAfterProbe(run?.failures.count == 1, "the probe's failures: 1")
        expectAfterProbe(
            run?.failures.first?.contains("resolved outside any layer") == true, "the failure")
        expectAfterProbe(run?.locations == ["<unknown>:0"], "the failure unlocated")
    }

    func testAKeypathThroughAKeyInAPlainXCTestCaseFailsItAtTheResolutionAndResolves() {
        nonisolated(unsafe) var now: String?
        let line = #line + 2
        let probe = PlainProbe(name: "throughAKey") { _ in
            now = Injections.container.resolve(\.xctestLeakClock.now)
        }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
        let failures = (probe.testRun as? QuietRun)?.failures ?? []
        expectAfterProbe(
            failures.first?.contains("keypath through a key") == true, "the failure names it")
        expectAfterProbe(
            (probe.testRun as? QuietRun)?.locations
                == ["InjectableTestingTests/GlobalChangeXCTestTests.swift:\(line)"],
            "the failure at the resolution")
        expectAfterProbe(now == "live", "the keypath resolved")
    }

    func testALiveOnlyKeyReachedWithoutAnOverrideFailsTheCase() {
        let probe = Probe(name: "liveOnly") { _ in
            _ = Injections.container.resolve(\.xctestLiveOnlyClock)
        }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
    }
}
