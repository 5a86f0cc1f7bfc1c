import Foundation
import InjectableKit
import TestSupport
import Testing

@testable import InjectableTesting

extension Injections {
    var globalProbeClock: DetachedProbeClock { DetachedProbeClock(now: "live") }
    var globalTurnClock: any Clock { SystemClock() }
}

/// The explicit spelling for suites that use the global container on purpose: no report, and
/// the overrides restored after each test. Serialized, and its key is its own.
@Suite(.serialized, .globalInjections) struct GlobalInjectionsTraitTests {
    @Test func aSuiteMarkedGlobalChangesTheGlobalOverridesWithoutReports() async {
        Injections.container.register(\.globalProbeClock) { DetachedProbeClock(now: "global") }
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
            Injections.container.register(\.globalProbeClock) { DetachedProbeClock(now: "inner") }
        }
        let now = await Task.detached { Injections.container.resolve(\.globalProbeClock).now }.value
        #expect(now == "live")
    }

    @Test func aTestsUnbalancedPopCannotUndoALevelSavedBeforeIt() async throws {
        // This suite's trait saved a level before this test; the inner trait saves another.
        Injections.container.register(\.globalProbeClock) { DetachedProbeClock(now: "outer") }
        defer { Injections.container.reset(\.globalProbeClock) }
        try await GlobalInjectionsTrait().provideScope(
            for: try #require(Test.current), testCase: Test.Case.current
        ) {
            Injections.container.pop()  // the test's own, with no push: pops the inner level
            Injections.container.register(\.globalProbeClock) { DetachedProbeClock(now: "inner") }
        }
        let now = await Task.detached { Injections.container.resolve(\.globalProbeClock).now }.value
        #expect(now == "outer")
    }

    /// Swift Testing's default for a recursive suite trait: a scope per test case, none for a
    /// test or suite as a whole.
    @Test func theTraitScopesEachTestCaseOnly() throws {
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        let trait = GlobalInjectionsTrait()
        #expect(trait.scopeProvider(for: test, testCase: testCase) != nil)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
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
                        for _ in 0..<5 {
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
