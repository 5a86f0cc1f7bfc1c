import InjectableKit

/// Which type overrides served a resolution, across the test cases of one trait: a suite's
/// trait makes a layer for each of its tests, and an override one test leaves unused may serve
/// another. The trait holds it in a `Locked`, since its test cases may run in parallel.
struct TypeOverrideUsage {
    /// The trait's tests and suites running, as a whole: the report waits for the outermost.
    private var depth = 0
    /// Whether the outermost is a suite, whose tests a filtered run may have left out.
    private var outermostIsSuite = false
    /// Whether a case threw: its overrides' use is unknown, so nothing is reported.
    private var incomplete = false
    /// The overridden types that some case used.
    private var served: Set<String> = []
    /// The first message that says an overridden type served nothing, one per type, in the
    /// order first reported.
    private var unused: [(typeName: String, message: String)] = []

    mutating func begin(isSuite: Bool) {
        if depth == 0 { outermostIsSuite = isSuite }
        depth += 1
    }

    /// Records that a case threw.
    mutating func abandon() {
        incomplete = true
    }

    /// Adds one test case's layer.
    mutating func record(_ overrides: [Injections.TypeOverride]) {
        for override in overrides {
            switch override {
            case .served(let typeName):
                served.insert(typeName)
            case .unused(let typeName, let message)
            where !unused.contains { $0.typeName == typeName }:
                unused.append((typeName, message))
            case .unused: break
            }
        }
    }

    /// Ends a test or suite as a whole.
    ///
    /// - Returns: Once the outermost has ended, one message per type override no case used,
    ///   and whether the outermost was a suite.
    mutating func end() -> (messages: [String], isSuite: Bool) {
        depth -= 1
        guard depth == 0 else { return ([], false) }
        defer { self = TypeOverrideUsage() }
        guard !incomplete else { return ([], outermostIsSuite) }
        let messages = unused.filter { !served.contains($0.typeName) }
            .map { "InjectableKit: " + $0.message }
        return (messages, outermostIsSuite)
    }
}
