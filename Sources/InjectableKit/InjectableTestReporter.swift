/// Receives InjectableKit's reports in a test process. The `InjectableTesting` library
/// implements it and records each report as an issue of the test that made it; apps and tests
/// never use it directly.
///
/// InjectableKit does not link a test framework: the implementation installs itself with
/// ``_install()`` as `InjectableTesting` loads and whenever its API is first used, so a test
/// target that links `InjectableTesting` gets its reports as test failures, and one that does
/// not gets the behaviour of a process outside tests.
///
/// ```swift
/// // InjectableTesting's implementation, in outline:
/// enum TestIssueReporter: _InjectableTestReporter {
///     static func reportGlobalChange(
///         _ message: String, fileID: String, line: Int, whilePushed: Bool
///     ) {
///         Issue.record(Comment(rawValue: message))
///     }
/// }
/// TestIssueReporter._install()
/// ```
public protocol _InjectableTestReporter: Sendable {
    /// A change of the global overrides (a `register`, `reset`, `push` or `pop` outside any
    /// layer), in a test process.
    ///
    /// ```swift
    /// Injections.container.register(\.api) { MockAPI() }   // in a test, outside any layer
    /// ```
    ///
    /// - Parameters:
    ///   - message: What changed, what it leaks into, and the fix.
    ///   - fileID: Where the change was made.
    ///   - line: The line of the change.
    ///   - whilePushed: Whether a `push()` was waiting for its `pop()`, as in an XCTest case
    ///     that saves and restores the global overrides around each test.
    static func reportGlobalChange(
        _ message: String, fileID: String, line: Int, whilePushed: Bool)

    /// A mistake made in a test process that the library can go on from: a `liveOnly` value
    /// reached without an override, a keypath through a key, a contribution after its
    /// collection's first resolution or outside the registration hook.
    ///
    /// ```swift
    /// var api: any APIClient { shared(liveOnly(LiveAPIClient())) }
    /// _ = Injections.container.resolve(\.date.now)   // a keypath through a key
    /// ```
    ///
    /// - Parameters:
    ///   - message: What happened, the key, and the fix.
    ///   - fileID: The call that made the mistake (`#fileID`), if the library knows it: a
    ///     contribution's, or for a `liveOnly` value or a keypath through a key, the outermost
    ///     resolution's on the thread that names its call (`resolve`, `@Injectable`); `nil`
    ///     for a lazy wrapper's first read.
    ///   - line: The line of that call.
    /// - Returns: Whether the report was recorded as a failure of a test, so the run goes on;
    ///   `false` stops the process, as outside tests.
    static func reportMistake(_ message: String, fileID: String?, line: Int) -> Bool

    /// Whether a resolution made now, outside any layer, of a key that a running test overrides
    /// in its layer, is to be reported: work that left a test's task (`Task.detached`, a
    /// thread), rather than a test's own resolution outside any layer. Asked in the resolving
    /// task; the report itself comes later, through ``reportUnlayeredResolution(_:)``.
    ///
    /// ```swift
    /// Task.detached { _ = Injections.container.resolve(\.api) }   // in a layered test
    /// ```
    ///
    /// - Returns: Whether to report the resolution to the tests that override its key.
    static func reportsUnlayeredResolution() -> Bool

    /// A resolution made outside any layer, of a key that the running test overrides in its
    /// layer: work that left the test's task, which got the live value. Made in that test's
    /// own task as its layer closes, once per key, so that the report is that test's.
    ///
    /// ```swift
    /// Task.detached { _ = Injections.container.resolve(\.api) }   // in a layered test
    /// ```
    ///
    /// - Parameter message: The key, what the resolution got, and the fix.
    static func reportUnlayeredResolution(_ message: String)
}

extension _InjectableTestReporter {
    /// Makes this type the receiver of InjectableKit's reports in this process. For
    /// `InjectableTesting` alone; apps and tests never call it.
    ///
    /// The first call installs the type, and later calls do nothing, whichever type makes them;
    /// any thread may call it, at any time. Reports are made in a test process only, and only
    /// once a reporter is installed: `InjectableTesting` installs its own before a test can
    /// make one.
    ///
    /// ```swift
    /// TestIssueReporter._install()
    /// ```
    public static func _install() {
        TestHook.install(self)
    }
}
