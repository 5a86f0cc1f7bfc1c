import InjectableKit
import Testing

/// A Swift Testing trait for tests that change the global overrides on purpose, as Factory's
/// tests do: each test case runs between `Injections.container.push()` and `pop()`, and its
/// changes of the global overrides are not reported.
///
/// ```swift
/// @Suite(.serialized, .globalInjections)
/// struct LaunchTests {
///     @Test func startsOnTheMocks() {
///         Injections.container.register(\.api) { MockAPI() }   // global, restored after
///         #expect(Launcher().start() == "mock")
///     }
/// }
/// ```
///
/// Outside a layer, a test's `register`, `reset` and `pop` change the overrides of the whole
/// process, which every test running at the same time sees: in a test process that links
/// `InjectableTesting`, each such change fails its test, unless the test carries this trait.
/// Test cases with this trait run one at a time, across suites, so that none sees another's
/// changes. Tests without it that run at the same time still do, unless they run in their own
/// layers (the ``InjectionsTrait`` `.injections`), whose own overrides win over global ones.
///
/// After each test case the trait puts back exactly the overrides it saved, whatever the test
/// pushed or popped: a test's own `pop()` without a `push()` cannot undo the trait's level, nor
/// one saved before the test.
///
/// Write it as `.globalInjections`, as Swift Testing's own traits are written (`.serialized`);
/// ``init()`` makes the same trait where code names the type.
public struct GlobalInjectionsTrait: TestTrait, SuiteTrait, TestScoping {
    /// The trait that `.globalInjections` gives, for code that names the type, such as a
    /// trait of the project's own that runs its tests inside this one.
    ///
    /// ```swift
    /// struct AppFixturesTrait: TestTrait, TestScoping {
    ///     let global = GlobalInjectionsTrait()   // the same as `.globalInjections`
    ///     func provideScope(
    ///         for test: Test, testCase: Test.Case?,
    ///         performing function: @Sendable () async throws -> Void
    ///     ) async throws {
    ///         try await global.provideScope(for: test, testCase: testCase) {
    ///             Injections.container.register(\.api) { FixtureAPI() }
    ///             try await function()
    ///         }
    ///     }
    /// }
    /// ```
    public init() {}

    /// Applies to the tests of nested suites too. (So Swift Testing's default
    /// `scopeProvider(for:testCase:)` gives a scope to each test case only, none to a suite.)
    public var isRecursive: Bool { true }

    /// Runs a test case between `push()` and `pop(to:)` of the global overrides, its changes
    /// of them expected.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case.
    ///   - function: Runs the test case.
    /// - Throws: What `function` throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await GlobalContainerTurn.run {
            try await TestIssueReporter.global {
                // `pop(to:)`, not `pop()`: a test's own unbalanced `pop()` would make ours
                // undo a level saved before the test.
                let saved = Injections.container.push()
                defer { Injections.container.pop(to: saved) }
                try await function()
            }
        }
    }
}

extension Trait where Self == GlobalInjectionsTrait {
    /// Lets the tests change the global overrides on purpose, each test case between `push()`
    /// and `pop(to:)` (see ``GlobalInjectionsTrait``).
    ///
    /// ```swift
    /// @Suite(.serialized, .globalInjections)
    /// struct LaunchTests { ... }
    /// ```
    public static var globalInjections: Self {
        TestIssueReporter._install()  // made as tests are discovered, before any runs
        return GlobalInjectionsTrait()
    }
}
