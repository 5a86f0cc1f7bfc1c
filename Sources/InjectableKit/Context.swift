import Foundation

extension Injections {
    /// Where the program runs: under tests, in a SwiftUI preview, in a debug build, or with a
    /// launch argument. Registrations name alternatives for contexts with
    /// ``Injections/when(_:_:make:)``.
    ///
    /// ```swift
    /// extension Injections {
    ///     var api: any APIClient {
    ///         when(.test) { MockAPIClient() }
    ///             ?? when(.argument("--mocks")) { MockAPIClient() }
    ///             ?? shared(LiveAPIClient())
    ///     }
    /// }
    /// ```
    public enum Context: Hashable, Sendable {
        /// Running under XCTest or Swift Testing.
        case test
        /// Running in an Xcode SwiftUI preview.
        case preview
        /// A debug build (of InjectableKit, which SwiftPM and Xcode build in the app's
        /// configuration).
        case debug
        /// The program was launched with this argument, such as `--mocks`.
        case argument(String)
        /// Built for a simulator: the iOS, tvOS, watchOS or visionOS simulator on a Mac
        /// (`targetEnvironment(simulator)`). Never on macOS or Linux.
        ///
        /// ```swift
        /// var location: any LocationProviding {
        ///     when(.simulator) { FixedLocation(.cupertino) } ?? shared(LiveLocation())
        /// }
        /// ```
        case simulator
        /// On real hardware: everywhere ``simulator`` is not (a phone, a watch, a Mac, a
        /// Linux machine).
        case device

        /// Whether the program runs in this context now.
        public var isActive: Bool {
            switch self {
            case .test: ContextFacts.isTesting
            case .preview: ContextFacts.isPreviewing
            case .debug: ContextFacts.isDebugBuild
            case .argument(let argument): ContextFacts.arguments.contains(argument)
            case .simulator: ContextFacts.isSimulator
            case .device: !ContextFacts.isSimulator
            }
        }
    }

    /// The value for a context, if the program runs in it; `nil` otherwise, so that
    /// alternatives chain with `??` and end with the live registration:
    ///
    /// ```swift
    /// var api: any APIClient {
    ///     when(.test) { MockAPIClient() } ?? shared(LiveAPIClient())
    /// }
    /// var location: any LocationProviding {
    ///     when(.simulator, .test) { FixedLocation(.cupertino) } ?? shared(LiveLocation())
    /// }
    /// ```
    ///
    /// With several contexts, the alternative applies when any of them is active, as Factory's
    /// `.context(.simulator, .test) { }` does. Only the chosen alternative is built. Contexts do
    /// not change while the program runs, so a key always takes the same branch. Overrides
    /// still win over all of them.
    ///
    /// - Parameters:
    ///   - context: A context the alternative is for.
    ///   - others: More contexts the alternative is for; any one active suffices.
    ///   - make: Builds the alternative; it may use a scope helper, such as
    ///     `when(.preview) { cached(PreviewStore()) }`.
    /// - Returns: The alternative, if any of the contexts is active; otherwise `nil`.
    public func when<Value>(
        _ context: Context, _ others: Context..., make: () -> Value
    ) -> Value? {
        // The first context is separate so that `when { ... }`, which no context could
        // activate, does not compile.
        context.isActive || others.contains(where: \.isActive) ? make() : nil
    }

    /// Marks a live value that must never be built under tests: there, reaching it without an
    /// override fails the test with a message naming the key and the override to add.
    ///
    /// ```swift
    /// var api: any APIClient {
    ///     when(.preview) { PreviewAPIClient() } ?? shared(liveOnly(LiveAPIClient()))
    /// }
    /// ```
    ///
    /// Opt-in: registrations without it build their live value under tests as anywhere else.
    /// A test that needs the key registers an override, or the registration names a
    /// `when(.test)` alternative.
    ///
    /// Outside tests, `liveOnly` changes nothing: the live value is built and returned. In a
    /// test process that links `InjectableTesting`, the failure is recorded as an issue of the
    /// test that reached the key (or of the run, for work no test is known to own), and the
    /// run goes on: the resolution then returns the live value, so the test runs to its end
    /// and reports everything else it finds. Keep a live value's initializer free of side
    /// effects (connect on first use), and the failing test reaches nothing.
    ///
    /// > Important: In a test process without `InjectableTesting`, which no test framework's
    /// > failure reaches from here, reaching the key stops the process with the message.
    ///
    /// - Parameters:
    ///   - make: Builds the live value.
    ///   - function: The registration's name; leave the default.
    /// - Returns: The live value: outside tests, and in a test that reached it, once the
    ///   failure is recorded.
    public func liveOnly<Value>(
        _ make: @autoclosure () -> Value, function: StaticString = #function
    ) -> Value {
        if token == OverrideLifetimes.probeToken { OverrideLifetimes.reached(nil) }
        if ContextFacts.isTesting {
            let message =
                "InjectableKit: \\.\(function) built its live value under tests, where it is "
                + "marked liveOnly. "
                + (Layers.current == nil
                    ? "The resolution ran outside any test's layer: give the test the "
                        + "`.injections` trait with `$0.register(\\.\(function)) { ... }`; if it "
                        + "has one, the resolution ran in work that left the test's task "
                        + "(`Task.detached`, a `DispatchQueue` block, a stored callback): capture "
                        + "`Injections.currentOverrides` in the test and run that work in "
                        + "`Injections.withOverrides(overrides) { ... }`."
                    : "Add the override to the test's layer: "
                        + "`$0.register(\\.\(function)) { ... }` in its `.injections` trait "
                        + "(XCTest: in `registerOverrides(_:)` of its `InjectableTestCase`).")
                + " Or give the registration a test alternative: when(.test) { ... } ?? ..."
            Failure.mistake(message)
        }
        return make()
    }
}

/// What the contexts depend on, read once.
enum ContextFacts {
    static let arguments = CommandLine.arguments

    static let isTesting: Bool = {
        let environment = ProcessInfo.processInfo.environment
        let xcTestVariables = [
            "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier",
        ]
        // Or SwiftPM's test runner on Linux (`<Package>PackageTests.xctest`), and Swift
        // Testing's exit tests, which run the same executable.
        return xcTestVariables.contains { environment[$0] != nil }
            || (arguments.first.map { $0.hasSuffix(".xctest") } ?? false)
    }()

    static let isPreviewing =
        ProcessInfo.processInfo.environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1"

    static let isDebugBuild = _isDebugAssertConfiguration()

    /// A simulator build: a compile-time fact, as the simulator is a platform of its own.
    static var isSimulator: Bool {
        #if targetEnvironment(simulator)
            true
        #else
            false
        #endif
    }
}
