import Foundation
import InjectableKit
import Testing

@testable import InjectableTesting

/// The `.injections` trait's report of type overrides that served nothing, checked by running
/// the trait's scopes here as Swift Testing runs them: one around the test or suite as a whole,
/// with one per test case inside.
struct UnusedOverrideReportTests {
    /// Runs each of `cases` in its own case scope of `trait`, all inside one whole-test scope.
    private func run(
        _ trait: InjectionsTrait, cases: [@Sendable () -> Void],
        then last: @Sendable () throws -> Void = {}
    ) async throws {
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        try await trait.provideScope(for: test, testCase: nil) {
            for body in cases {
                try await trait.provideScope(for: test, testCase: testCase) {
                    body()
                    try last()
                }
            }
        }
    }

    @Test func aConcreteTypeOverrideForProtocolKeysIsReportedWithTheFix() async throws {
        let trait = InjectionsTrait.injections { $0.register { ConcreteClock() } }
        try await withKnownIssue {
            try await run(trait, cases: [{ _ = Injections.container.resolve(\.testingClock) }])
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("type override for InjectableTestingTests.ConcreteClock")
                    && $0.rawValue.contains("register { ConcreteClock(...) as any YourProtocol }")
            }
        }
    }

    @Test func anExplicitTypeServesTheProtocolsKeys() async throws {
        let trait = InjectionsTrait.injections {
            $0.register(as: (any Clock).self) { ConcreteClock() }
        }
        try await run(
            trait,
            cases: [{ #expect(Injections.container.resolve(\.testingClock).now == "concrete") }])
    }

    @Test func anOverrideThatServedOneOfTheCasesIsNotReported() async throws {
        let trait = InjectionsTrait.injections {
            $0.register { FixedClock(now: "type") as any Clock }
        }
        try await run(
            trait, cases: [{}, { _ = Injections.container.resolve(\.testingBackupClock) }])
    }

    @Test func aSuitesReportWaitsForItsLastTest() async throws {
        let trait = InjectionsTrait.injections {
            $0.register { FixedClock(now: "type") as any Clock }
        }
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        // A suite's scope, around two tests' scopes: only the second uses the override.
        try await trait.provideScope(for: test, testCase: nil) {
            for uses in [false, true] {
                try await trait.provideScope(for: test, testCase: nil) {
                    try await trait.provideScope(for: test, testCase: testCase) {
                        if uses { _ = Injections.container.resolve(\.testingBackupClock) }
                    }
                }
            }
        }
    }

    @Test func aCaseThatThrewReportsNothing() async throws {
        struct Stop: Error {}
        let trait = InjectionsTrait.injections { $0.register { ConcreteClock() } }
        await #expect(throws: Stop.self) {
            try await run(trait, cases: [{}]) { throw Stop() }
        }
    }

    @Test func aSuitesReportIsAWarningSinceAFilteredRunMayLeaveItsTestsOut() {
        var usage = TypeOverrideUsage()
        usage.begin(isSuite: true)
        usage.begin(isSuite: false)
        #expect(usage.end().messages.isEmpty)
        let layer = Injections.makeOverrides { $0.register { ConcreteClock() } }
        usage.record(layer.typeOverrides)
        let (messages, isSuite) = usage.end()
        #expect(isSuite)
        #expect(messages.count == 1)
    }

    @Test func theReportCanBeTurnedOffForATestThatMeansIt() async throws {
        let trait = InjectionsTrait.injections(reportingUnusedOverrides: false) {
            $0.register { ConcreteClock() }
        }
        try await run(trait, cases: [{}])
    }

    @Test func aTestsOwnTypeOverrideInItsLayerIsCheckedToo() async throws {
        try await withKnownIssue {
            try await run(
                .injections(),
                cases: [{ Injections.container.register { ConcreteClock() } }])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ConcreteClock") }
        }
    }

    @Test func anOverrideForAnOptionalKeysProtocolIsReportedAsAnotherType() async throws {
        let trait = InjectionsTrait.injections { $0.register { FixedClock(now: "x") as any Clock } }
        try await withKnownIssue {
            try await run(
                trait, cases: [{ _ = Injections.container.resolve(\.testingOptionalClock) }])
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("type override for any InjectableTestingTests.Clock")
                    && $0.rawValue.contains("(any InjectableTestingTests.Clock)?")
            }
        }
    }
}
