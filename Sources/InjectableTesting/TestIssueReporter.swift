import Foundation
import InjectableKit
import Testing
import XCTest

/// Records InjectableKit's reports in a test process as Swift Testing issues. InjectableKit
/// links no test framework: this library installs the reporter (`_install()`) as it loads,
/// where the platform runs initializers (`installAtLoad`), and at each of its entry points.
enum TestIssueReporter: _InjectableTestReporter {
    /// Whether the task runs a test or suite marked `.globalInjections`.
    @TaskLocal static var usesGlobalContainer = false

    private static let state = Locked(State())

    private struct State {
        /// Tests running in a layer of the `.injections` trait.
        var layeredTests = 0
        /// `InjectableTestCase` tests running (XCTest runs one at a time).
        var xctestCases = 0
        /// Tests running under `.globalInjections`: their work that leaves their task is not
        /// told apart from a leak, so nothing unattributed is reported while one runs.
        var globalTests = 0
        /// Call sites already reported without a test to attribute them to.
        var reportedSites: Set<String> = []
        /// Where reports without a test go instead of `Issue.record`: this library's tests,
        /// each of which collects every report.
        var sinks: [Int: [String]] = [:]
        var nextSink = 0
    }

    /// Collects, instead of recording them, the reports no test is known to own while
    /// `operation` runs, made whether or not `.globalInjections` tests run (this library's run
    /// has some at any time). A resolution outside any layer is reported then too, to the test
    /// that overrides its key, as an issue of that test.
    static func unattributedReports(
        during operation: () async throws -> Void
    ) async rethrows -> [String] {
        let id = state.withLock { state in
            state.nextSink += 1
            state.sinks[state.nextSink] = []
            return state.nextSink
        }
        defer { _ = state.withLock { $0.sinks.removeValue(forKey: id) } }
        try await operation()
        return state.withLock { $0.sinks[id] ?? [] }
    }

    static func reportGlobalChange(
        _ message: String, fileID: String, line: Int, whilePushed: Bool
    ) {
        guard !usesGlobalContainer else { return }
        let location = SourceLocation(fileID: fileID, filePath: fileID, line: line, column: 1)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else if state.withLock({ $0.layeredTests == 0 && $0.globalTests == 0 }) {
            // No Swift Testing test runs in a trait: an XCTest case's change, if one runs (XCTest
            // runs its cases one at a time), at the test's line. Not undone by a `pop()`, it
            // reaches every later case; between `push()` and `pop()` it is made on purpose.
            XCTestCases.observe()
            if !whilePushed, !XCTestCases.fail(message, fileID: fileID, line: line) {
                XCTFail(message)  // a case that started before the observer was registered
            }
        } else {
            // Work that left its test's task: once per call site, and only while layered tests
            // run, which a global change would reach.
            recordUnowned(message, once: "\(fileID):\(line)", at: location) {
                $0.layeredTests > 0 && ($0.globalTests == 0 || !$0.sinks.isEmpty)
            }
        }
    }

    static func reportMistake(_ message: String, fileID: String?, line: Int) -> Bool {
        // The run goes on wherever the report lands: a test's issue, an XCTest case's failure,
        // or once the run's while tests run in the traits.
        let site = fileID.map { SourceLocation(fileID: $0, filePath: $0, line: line, column: 1) }
        if let test = Test.current {
            // A call site not known (a lazy wrapper's first read): at the test's declaration.
            Issue.record(Comment(rawValue: message), sourceLocation: site ?? test.sourceLocation)
            return true
        }
        XCTestCases.observe()
        let (xctestCases, traitTests) = state.withLock {
            ($0.xctestCases, $0.layeredTests + $0.globalTests + $0.sinks.count)
        }
        if XCTestCases.fail(message, fileID: fileID, line: line) { return true }
        if xctestCases > 0 {
            XCTFail(message)  // a case that started before the observer was registered
            return true
        }
        // No test known to record it (work outside every test): stopping is the one report
        // that cannot pass unseen.
        guard traitTests > 0 else { return false }
        recordUnowned(message, once: message, at: site)
        return true
    }

    static func reportsUnlayeredResolution() -> Bool {
        // A test's own resolution outside any layer asks for the live value: only work that
        // left its test's task (no current test) is reported. Work a `.globalInjections` test
        // left is not told apart from a layered test's, so none is while one runs (except to
        // this library's collecting tests, which run beside such tests).
        guard Test.current == nil else { return false }
        return state.withLock { $0.globalTests == 0 || !$0.sinks.isEmpty }
    }

    static func reportUnlayeredResolution(_ message: String) {
        // In the overriding test's task, as its layer closes: its issue, at its declaration
        // (the resolution's call site is not known), or its XCTest case's failure.
        if let test = Test.current {
            Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
        } else if !XCTestCases.fail(message, fileID: nil, line: 0) {
            XCTFail(message)  // a case that started before the observer was registered
        }
    }

    /// Records `message`, which no test is known to own, as an issue of the run (at `location`,
    /// if known), or hands it to this library's collecting tests, if any: the first time `site`
    /// reports while `condition` holds.
    private static func recordUnowned(
        _ message: String, once site: String, at location: SourceLocation?,
        if condition: (State) -> Bool = { _ in true }
    ) {
        let record = state.withLock { state in
            guard condition(state), state.reportedSites.insert(site).inserted else { return false }
            for id in state.sinks.keys { state.sinks[id]?.append(message) }
            return state.sinks.isEmpty
        }
        if record {
            Issue.record(Comment(rawValue: message), sourceLocation: location ?? #_sourceLocation)
        }
    }

    /// Runs a layered test, counted while it runs.
    static func layered(_ test: () async throws -> Void) async rethrows {
        state.withLock { $0.layeredTests += 1 }
        defer { state.withLock { $0.layeredTests -= 1 } }
        try await test()
    }

    /// Runs an `InjectableTestCase` test, counted while it runs.
    static func xctestCase(_ test: () throws -> Void) rethrows {
        state.withLock { $0.xctestCases += 1 }
        defer { state.withLock { $0.xctestCases -= 1 } }
        try test()
    }

    /// Runs a test that uses the global container on purpose.
    static func global(_ test: () async throws -> Void) async rethrows {
        state.withLock { $0.globalTests += 1 }
        defer { state.withLock { $0.globalTests -= 1 } }
        try await $usesGlobalContainer.withValue(true) { try await test() }
    }
}

// NB: a loaded image runs the initializers in this section before `main` (a test bundle, before
// its tests), so that a plain test's global change or mistake is reported before any of this
// library's API runs. Elsewhere, its entry points install the reporter as they run.
#if compiler(>=6.3)
    #if canImport(Darwin)
        @section("__DATA,__mod_init_func,mod_init_funcs")
    #elseif os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
        @section(".init_array")
    #endif
    @used private let installAtLoad: @convention(c) () -> Void = {
        TestIssueReporter._install()
        XCTestCases.observe()
    }
#endif
