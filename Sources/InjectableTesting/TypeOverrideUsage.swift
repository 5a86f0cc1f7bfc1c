import Foundation
import InjectableKit

/// Which type overrides served a resolution, across the test cases of one trait: a suite's
/// trait makes a layer for each of its tests, and an override one test leaves unused may serve
/// another.
final class TypeOverrideUsage: @unchecked Sendable {
    // @unchecked: `state` is guarded by `lock` (an `NSLock`, which ThreadSanitizer sees; it
    // cannot see `Mutex`'s hand-over on Linux).
    private struct State {
        /// The trait's tests and suites running, as a whole: the report waits for the outermost.
        var depth = 0
        /// Whether the outermost is a suite, whose tests a filtered run may have left out.
        var outermostIsSuite = false
        /// Whether a case threw: its overrides' use is unknown, so nothing is reported.
        var incomplete = false
        /// The overridden types that some case used.
        var served: Set<String> = []
        /// The first message that says an overridden type served nothing, one per type, in the
        /// order first reported.
        var unused: [(typeName: String, message: String)] = []
    }

    private let lock = NSLock()
    private var state = State()

    func begin(isSuite: Bool) {
        lock.locked {
            if state.depth == 0 { state.outermostIsSuite = isSuite }
            state.depth += 1
        }
    }

    /// Records that a case threw.
    func abandon() {
        lock.locked { state.incomplete = true }
    }

    /// Adds one test case's layer.
    func record(_ overrides: [Injections.TypeOverride]) {
        lock.locked {
            for override in overrides {
                switch override {
                case .served(let typeName):
                    state.served.insert(typeName)
                case .unused(let typeName, let message)
                where !state.unused.contains { $0.typeName == typeName }:
                    state.unused.append((typeName, message))
                case .unused: break
                }
            }
        }
    }

    /// Ends a test or suite as a whole.
    ///
    /// - Returns: Once the outermost has ended, one message per type override no case used,
    ///   and whether the outermost was a suite.
    func end() -> (messages: [String], isSuite: Bool) {
        lock.locked {
            state.depth -= 1
            guard state.depth == 0 else { return ([], false) }
            defer { state = State() }
            guard !state.incomplete else { return ([], state.outermostIsSuite) }
            let messages = state.unused.filter { !state.served.contains($0.typeName) }
                .map { "InjectableKit: " + $0.message }
            return (messages, state.outermostIsSuite)
        }
    }
}
