import Foundation
import InjectableKit
import Testing

@testable import InjectableTesting

extension Injections {
    var leakProbeClock: any Clock { SystemClock() }
    var globalProbeClock: any Clock { SystemClock() }
    var detachedProbeClock: any Clock { shared(SystemClock()) }
    /// Of a type of its own, which no type override of another test's layer serves.
    var detachedBystanderClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
    var globalTurnClock: any Clock { SystemClock() }
    var detachedCarriedClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
}

/// A test's change of the global overrides is reported as its failure, naming the key, the
/// call site and the fix. Each test here makes its change inside `withKnownIssue` and undoes
/// it at once; the key is one no other test resolves, so the change reaches no other test.
struct GlobalChangeReportTests {
    @Test func aGlobalRegisterInATestFailsItNamingTheKeyTheCallSiteAndTheFix() {
        withKnownIssue {
            Injections.container.register(\.leakProbeClock) { FixedClock(now: "leak") }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("register(")
                    && $0.rawValue.contains("GlobalChangeReportTests.swift:")
                    && $0.rawValue.contains("changed the global overrides")
                    && $0.rawValue.contains(".injections")
                    && $0.rawValue.contains(".globalInjections")
            }
        }
        TestIssueReporter.$usesGlobalContainer.withValue(true) {
            Injections.container.reset(\.leakProbeClock)
        }
    }

    @Test func aGlobalTypeRegisterAndResetAreReportedToo() {
        withKnownIssue {
            Injections.container.register { FixedClock(now: "leak") as FixedClock }
            Injections.container.reset(FixedClock.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("changed the global overrides") }
        }
    }

    @Test(.injections()) func aRegisterInTheTestsLayerIsNotReported() {
        Injections.container.register(\.leakProbeClock) { FixedClock(now: "mine") }
        #expect(Injections.container.resolve(\.leakProbeClock).now == "mine")
    }

    @Test func aChangeInWorkThatLeftALayeredTestIsReportedOncePerCallSite() async throws {
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections().provideScope(
                for: try #require(Test.current), testCase: Test.Case.current
            ) {
                for _ in 0..<2 {
                    // Detached work leaves the test's layer, and `Test.current`.
                    await Task.detached {
                        Injections.container.register(\.leakProbeClock) { FixedClock(now: "x") }
                        TestIssueReporter.$usesGlobalContainer.withValue(true) {
                            Injections.container.reset(\.leakProbeClock)
                        }
                    }.value
                }
            }
        }
        let messages = reports.filter { $0.contains("GlobalChangeReportTests.swift:") }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("changed the global overrides") == true)
    }
}

/// Work that leaves a layered test's task resolves outside its layer: of a key the layer
/// overrides, that resolution got the live value, and is reported. The keys are this suite's
/// own, so no other test's layer overrides them.
struct UnlayeredResolutionReportTests {
    @Test func aResolutionInWorkThatLeftALayeredTestIsReportedOncePerKey() async throws {
        _ = Injections.container.resolve(\.detachedProbeClock)  // the key's name is learned
        let seen = Guarded<[String]>([])
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedProbeClock) { FixedClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                for _ in 0..<2 {
                    let now = await Task.detached {
                        Injections.container.resolve(\.detachedProbeClock).now
                    }.value
                    seen.withLock { $0.append(now) }
                }
            }
        }
        #expect(seen.withLock { $0 } == ["live", "live"])
        let messages = reports.filter { $0.contains("detachedProbeClock") }
        #expect(messages.count == 1, "\(reports)")
        #expect(messages.first?.contains("resolved outside any layer") == true)
        #expect(messages.first?.contains("Injections.currentOverrides") == true)
    }

    @Test func aResolutionOfAKeyNoTestOverridesIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedBystanderClock)  // the key's name is learned
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedProbeClock) { FixedClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                _ = await Task.detached { Injections.container.resolve(\.detachedBystanderClock) }
                    .value
            }
        }
        #expect(!reports.contains { $0.contains("detachedBystanderClock") }, "\(reports)")
    }

    @Test func workCarryingTheTestsLayerIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedCarriedClock)  // the key's name is learned
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedCarriedClock) { DetachedProbeClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                let overrides = Injections.currentOverrides
                let now = await Task.detached {
                    Injections.withOverrides(overrides) {
                        Injections.container.resolve(\.detachedCarriedClock).now
                    }
                }.value
                #expect(now == "mock")
            }
        }
        #expect(!reports.contains { $0.contains("detachedCarriedClock") }, "\(reports)")
    }
}

/// The explicit spelling for suites that use the global container on purpose: no report, and
/// the overrides restored after each test. Serialized, and its key is its own.
@Suite(.serialized, .globalInjections) struct GlobalInjectionsTraitTests {
    @Test func aSuiteMarkedGlobalChangesTheGlobalOverridesWithoutReports() async {
        Injections.container.register(\.globalProbeClock) { FixedClock(now: "global") }
        defer { Injections.container.reset(\.globalProbeClock) }
        // Seen outside any layer, from a detached task too: the change is global.
        let seen = await Task.detached { Injections.container.resolve(\.globalProbeClock).now }
            .value
        #expect(seen == "global")
    }

    @Test func theOverridesAreRestoredAfterEachTest() async throws {
        try await GlobalInjectionsTrait().provideScope(
            for: try #require(Test.current), testCase: Test.Case.current
        ) {
            Injections.container.register(\.globalProbeClock) { FixedClock(now: "inner") }
        }
        let now = await Task.detached { Injections.container.resolve(\.globalProbeClock).now }.value
        #expect(now == "live")
    }
}

/// Test cases of two `.globalInjections` suites that run at once take turns: each keeps its
/// global override for its whole run. The key is this suite's own.
struct GlobalInjectionsTurnTests {
    @Test func globalTestCasesOfTwoSuitesTakeTurns() async throws {
        let test = try #require(Test.current)
        let kept = Kept()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in ["first", "second"] {
                group.addTask {
                    try await GlobalInjectionsTrait().provideScope(
                        for: test, testCase: Test.Case.current
                    ) {
                        Injections.container.register(\.globalTurnClock) { FixedClock(now: name) }
                        var held = true
                        for _ in 0..<20 {
                            try await Task.sleep(nanoseconds: 1_000_000)
                            held =
                                held && Injections.container.resolve(\.globalTurnClock).now == name
                        }
                        kept.record(name, held)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(kept.all == ["first": true, "second": true])
        #expect(Injections.container.resolve(\.globalTurnClock).now == "live")
    }
}

/// Whether each test case kept its override, from the tasks that ran them.
private final class Kept: Sendable {
    private let kept = Guarded<[String: Bool]>([:])
    func record(_ name: String, _ held: Bool) { kept.withLock { $0[name] = held } }
    var all: [String: Bool] { kept.withLock { $0 } }
}

/// The type of keys that only `UnlayeredResolutionReportTests` use.
struct DetachedProbeClock: Sendable {
    let now: String
}
