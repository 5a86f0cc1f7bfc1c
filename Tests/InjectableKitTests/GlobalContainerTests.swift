import Testing

@testable import InjectableTesting

/// Every suite that registers overrides or resets scopes of the one process-wide container is
/// nested here and runs serialized, so that one test's overrides never leak into another's.
/// Suites that run in parallel use their own `withOverrides` layers; a layer still falls back
/// to the global overrides and caches, so they resolve keys these suites never override.
/// `.usesGlobalContainer` says that these changes of the global overrides are made on purpose
/// (users write `.globalInjections`, which also restores the overrides after each test: some
/// of these tests pin what `push` and `pop` do to the registry as they find it).
@Suite(.serialized, .usesGlobalContainer) struct GlobalContainerTests {}

/// `.globalInjections` without its `push()` and `pop()`.
struct UsesGlobalContainerTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await GlobalContainerTurn.run {
            try await TestIssueReporter.global { try await function() }
        }
    }
}

extension Trait where Self == UsesGlobalContainerTrait {
    static var usesGlobalContainer: Self { UsesGlobalContainerTrait() }
}
