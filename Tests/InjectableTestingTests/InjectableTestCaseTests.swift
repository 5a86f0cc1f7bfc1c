import InjectableKit
import InjectableTesting
import XCTest

final class InjectableTestCaseTests: InjectableTestCase {
    override func registerOverrides(_ injections: Injections) {
        injections.register(\.testingClock) { FixedClock(now: "xctest") }
    }

    func testOverridesApplyToTheTest() {
        XCTAssertEqual(Injections.container.resolve(\.testingGreeter).greeting, "hello at xctest")
    }

    /// Named to run first (XCTest runs a class's tests in name order), so that the tests after
    /// it would see a registration that leaked.
    func testARegistrationInOneTestStaysInIt() {
        Injections.container.register(\.testingClock) { FixedClock(now: "changed here") }
        XCTAssertEqual(Injections.container.resolve(\.testingClock).now, "changed here")
    }

    func testAnotherTestSeesTheClassOverrides() {
        XCTAssertEqual(Injections.container.resolve(\.testingClock).now, "xctest")
        XCTAssertEqual(Injections.container.resolve(\.testingCounter).count, 0)
        Injections.container.resolve(\.testingCounter).count += 1
    }

    func testAsyncTestsSeeTheOverrides() async throws {
        try await Task.sleep(nanoseconds: 1_000_000)
        XCTAssertEqual(Injections.container.resolve(\.testingClock).now, "xctest")
        XCTAssertEqual(Injections.container.resolve(\.testingCounter).count, 0)
        Injections.container.resolve(\.testingCounter).count += 1
    }
}

/// Runs an `InjectableTestCase` of its own, and reads its run's failures.
final class UnusedOverrideTestCaseTests: XCTestCase {
    final class Probe: InjectableTestCase {
        override var testRunClass: AnyClass? { QuietRun.self }
        override func registerOverrides(_ injections: Injections) {
            injections.register { ConcreteClock() }
        }
    }

    final class QuietProbe: InjectableTestCase {
        override var testRunClass: AnyClass? { QuietRun.self }
        override var reportsUnusedOverrides: Bool { false }
        override func registerOverrides(_ injections: Injections) {
            injections.register { ConcreteClock() }
        }
    }

    func testAnUnusedTypeOverrideFailsTheTest() {
        let probe = Probe(name: "probe") { _ in _ = Injections.container.resolve(\.testingClock) }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
        expectAfterProbe(
            (probe.testRun as? QuietRun)?.locations == ["<unknown>:0"],
            "the failure unlocated, not in the library")
    }

    func testASkippedTestIsNotFailedForIt() {
        let probe = Probe(name: "skipped") { _ in throw XCTSkip("not here") }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 0, "the probe's failures: 0")
        expectAfterProbe(probe.testRun?.hasBeenSkipped == true, "the probe was skipped")
    }

    func testAFailedTestGetsNoSecondFailureForIt() {
        let probe = Probe(name: "failing") { _ in XCTFail("its own failure") }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 1, "the probe's failures: 1")
    }

    func testAClassCanTurnTheCheckOff() {
        let probe = QuietProbe(name: "quiet") { _ in }
        probe.run()
        expectAfterProbe(probe.testRun?.failureCount == 0, "the probe's failures: 0")
    }
}
