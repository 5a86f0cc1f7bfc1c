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
///
/// The trait's closure runs on the main actor, so it can override `@MainActor` keys by key:
/// `$0.registerOnMainActor(\.listViewModel) { PreviewListViewModel() }`. A key isolated to
/// another global actor can be named only on that actor: give the closure that actor with
/// `.injections(isolated:)`.
///
/// When the test or suite the trait is attached to has finished, the trait records an issue
/// for each type override that served no resolution in any of its test cases: a type override
/// serves only keys declared with exactly its type, so `register { MockService() }` does
/// nothing for keys declared `any MyServiceType`. On a test the issue is an error; on a suite,
/// whose tests a filtered run may leave out, a warning. Nothing is reported when a test case
/// threw. Pass `reportingUnusedOverrides: false` to a test that registers one on purpose.
public struct InjectionsTrait: TestTrait, SuiteTrait, TestScoping {
    /// Registers the overrides, on the closure's actor, in the layer in effect.
    let configure: @isolated(any) @Sendable (Injections) -> Void
    let usage: Locked<TypeOverrideUsage>?
    let sourceLocation: SourceLocation

    /// Applies to the tests of nested suites too.
    public var isRecursive: Bool { true }

    /// Provides a scope for each test case, and one for the test or suite as a whole, at whose
    /// end it reports type overrides that served nothing.
    ///
    /// - Parameters:
    ///   - test: The test or suite the trait is applied to.
    ///   - testCase: The test case about to run, or `nil` for a test or suite as a whole.
    /// - Returns: The trait.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        self
    }

    /// Runs a test case inside its own overrides; around a test or suite as a whole, reports
    /// the type overrides that served no resolution in it.
    ///
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case, or `nil` for a test or suite as a whole.
    ///   - function: Runs the test case, the test or the suite.
    /// - Throws: What `function` throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            // Around the trait's whole test or suite (a suite's trait reaches its nested suites
            // and tests too, each of which comes here within the suite's own call).
            usage?.withLock { $0.begin(isSuite: test.isSuite) }
            defer {
                if let (messages, isSuite) = usage?.withLock({ $0.end() }) {
                    // A filtered run may leave out the suite's tests that use an override.
                    for message in messages {
                        Issue.record(
                            Comment(rawValue: message), severity: isSuite ? .warning : .error,
                            sourceLocation: sourceLocation)
                    }
                }
            }
            try await function()
            return
        }
        let layer = Injections.makeOverrides { _ in }
        // The closure runs on its actor, maybe after a hop: it registers in the layer in
        // effect, which the task carries there.
        await Injections.withOverrides(layer) { await configure(.container) }
        do {
            try await TestIssueReporter.layered {
                try await Injections.withOverrides(Injections._testLayer(layer)) {
                    try await function()
                }
            }
        } catch {
            usage?.withLock { $0.abandon() }
            throw error
        }
        usage?.withLock { $0.record(layer.typeOverrides) }
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
    /// - Parameters:
    ///   - reportingUnusedOverrides: Whether to record an issue for a type override that
    ///     served no resolution in any of the trait's tests.
    ///   - sourceLocation: Where those issues are reported; leave the default.
    ///   - configure: Registers the overrides, on the main actor: every operation of
    ///     `Injections.container`, called on the value it is passed, changes the test's layer.
    ///     Leave it out for isolation alone.
    /// - Returns: The trait.
    public static func injections(
        reportingUnusedOverrides: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ configure: @escaping @MainActor @Sendable (Injections) -> Void = { _ in }
    ) -> Self {
        injections(
            reportingUnusedOverrides: reportingUnusedOverrides, sourceLocation: sourceLocation,
            isolated: configure)
    }

    /// Runs each test in its own overrides and scope caches, registered by a closure isolated
    /// to the actor it names: for keys isolated to a global actor other than the main actor,
    /// which only code on that actor can name.
    ///
    /// ```swift
    /// @Test(.injections(isolated: { @StorageActor in
    ///     $0.registerOnGlobalActor(\.store) { @StorageActor in MemoryStore() }
    /// }))
    /// @StorageActor func savesItems() { ... }
    /// ```
    ///
    /// It otherwise behaves as ``injections(reportingUnusedOverrides:sourceLocation:_:)``.
    ///
    /// - Parameters:
    ///   - reportingUnusedOverrides: Whether to record an issue for a type override that
    ///     served no resolution in any of the trait's tests.
    ///   - sourceLocation: Where those issues are reported; leave the default.
    ///   - configure: Registers the overrides, on the actor written on the closure
    ///     (`{ @StorageActor in ... }`); a closure without one runs on no actor.
    /// - Returns: The trait.
    public static func injections(
        reportingUnusedOverrides: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation,
        isolated configure: @escaping @isolated(any) @Sendable (Injections) -> Void
    ) -> Self {
        TestIssueReporter._install()  // made as tests are discovered, before any runs
        return InjectionsTrait(
            configure: configure,
            usage: reportingUnusedOverrides ? Locked(TypeOverrideUsage()) : nil,
            sourceLocation: sourceLocation)
    }
}
