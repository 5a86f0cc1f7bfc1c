@testable import InjectableKit

/// Test-only access to a lazy wrapper's once-state: which state of the table in
/// `Internal/README.md` ("A lazy wrapper's first read") its word is in.
extension LazyOnce {
    /// A state of the table in `Internal/README.md`.
    enum Phase: Equatable {
        case unresolved
        case resolving(onThisThread: Bool, waitedFor: Bool)
        case resolved
        case replaced
    }

    /// The current state.
    var phase: Phase {
        let word = state.loadAcquiring()
        switch word {
        case Self.unresolved: return .unresolved
        case Self.resolved: return .resolved
        case Self.replaced: return .replaced
        default:
            return .resolving(
                onThisThread: word & ~Self.waitedFor == ThreadState.currentAddress,
                waitedFor: word & Self.waitedFor != 0)
        }
    }
}
