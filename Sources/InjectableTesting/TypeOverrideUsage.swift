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
        /// Each overridden type, and whether any case used it.
        var served: [String: Bool] = [:]
        /// Each overridden type, in the order first registered, with the message that says it
        /// served nothing, if it served nothing in that first case.
        var order: [(typeName: String, unusedMessage: String?)] = []
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
                let (typeName, message): (String, String?) =
                    switch override {
                    case .served(let typeName): (typeName, nil)
                    case .unused(let typeName, let message): (typeName, message)
                    }
                // A type whose first case used it is never reported: its message is not needed.
                if state.served[typeName] == nil { state.order.append((typeName, message)) }
                state.served[typeName, default: false] =
                    state.served[typeName, default: false] || message == nil
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
            let messages = state.order.filter { state.served[$0.typeName] == false }
                .compactMap { $0.unusedMessage.map { "InjectableKit: " + $0 } }
            return (messages, state.outermostIsSuite)
        }
    }
}
