import InjectableKit
import Testing

/// A Swift Testing trait that runs each test in its own set of overrides and scope caches.
///
/// ```swift
/// @Test(.injections { $0.register(\.api) { MockAPI() } })
/// func accountsLoad() async throws {
///     let model = AccountsViewModel()   // its @Injectable(\.api) gets MockAPI
///     try await model.load()
///     #expect(model.accounts.count == 2)
/// }
///
/// @Suite(.injections { $0.register { MockService() as any MyServiceType } })
/// struct ProfileTests { ... }  // every test in the suite, each in a fresh layer
/// ```
///
/// Each test case runs inside `Injections.withOverrides`: whatever it resolves (child tasks
/// included) sees its overrides, `Injections.container.register` and scope resets inside it
/// affect only that test, and tests that use the trait can run in parallel, which is Swift
/// Testing's default. On a suite, the trait applies to every test in it and in its nested
/// suites; a test's own `.injections` trait is layered over its suite's.
public struct InjectionsTrait: TestTrait, SuiteTrait, TestScoping {
    let configure: @Sendable (Injections.LocalOverrides) -> Void

    /// Applies to the tests of nested suites too.
    public var isRecursive: Bool { true }

    /// Provides a scope for each test case, not for a suite as a whole, so that each test
    /// starts from its own fresh layer.
    ///
    /// - Parameters:
    ///   - test: The test or suite the trait is applied to.
    ///   - testCase: The test case about to run, or `nil` for a suite.
    /// - Returns: The trait, for a test case; `nil` for a suite.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case inside its own overrides.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case.
    ///   - function: Runs the test case.
    /// - Throws: What the test case throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Injections.withOverrides(configure) {
            try await function()
        }
    }
}

extension Trait where Self == InjectionsTrait {
    /// Runs each test in its own overrides and scope caches (see ``InjectionsTrait``).
    ///
    /// ```swift
    /// @Test(.injections { $0.register(\.api) { MockAPI() } })
    /// func loadsAccounts() { ... }
    /// ```
    ///
    /// - Parameter configure: Registers the overrides, with the same `register` forms as
    ///   `Injections.container`. Leave it out for isolation alone.
    /// - Returns: The trait.
    public static func injections(
        _ configure: @escaping @Sendable (Injections.LocalOverrides) -> Void = { _ in }
    ) -> Self {
        InjectionsTrait(configure: configure)
    }
}
