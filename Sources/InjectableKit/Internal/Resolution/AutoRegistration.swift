import CInjectableAtomics
import Foundation

/// Runs ``AutoRegistering/registerAllServices()`` once before the container's first use.
///
/// The fast path is one atomic load. The thread that runs the hook may use the container
/// from inside it; other threads wait until it has finished.
enum AutoRegistration {
    private static let pending: UInt = 0
    private static let running: UInt = 1
    private static let done: UInt = 2

    /// `pending`, `running` or `done`.
    private static var state: AtomicWord { AtomicWord(static: IK_AUTO_REGISTRATION) }
    private static let condition = NSCondition()
    // Guarded by `condition`: the thread running the hook.
    nonisolated(unsafe) private static var runner: ThreadState?

    /// `Injections` as an ``AutoRegistering`` type, if it is one. Looked up once: a failed
    /// conformance lookup scans every conformance in the process, which the first resolution
    /// after each `reset()` would pay again.
    // nonisolated(unsafe): a metatype, written once by the `let`'s lazy initialiser and only
    // read after; metatypes hold no state (it is not `Sendable` only for lack of a constraint).
    nonisolated(unsafe) private static let hook =
        (Injections.self as Any.Type) as? any AutoRegistering.Type

    @inline(__always)
    static func ensure() {
        if state.loadAcquiring() != done { runIfNeeded() }
    }

    /// Whether this thread runs the hook now: its registrations are the app's, made on
    /// purpose, wherever the first use of the container came from.
    static var isRunningHook: Bool {
        let thread = ThreadState.current
        return condition.locked(rank: .leaf) { runner === thread }
    }

    /// Makes the hook run again before the next access (after `reset()`).
    static func rearm() {
        condition.locked(rank: .leaf) {
            if state.loadRelaxed() == done { state.storeReleasing(pending) }
        }
        // Resolution's fast path skips `ensure()` for keys it has memo records for: make
        // them all stale, so that the next resolution of each takes the path that runs it.
        Core.shared.overrides.invalidateMemos()
    }

    private static func runIfNeeded() {
        let thread = ThreadState.current
        let runs = condition.locked(rank: .leaf) {
            while state.loadAcquiring() == running {
                if runner === thread { return false }  // the hook itself uses the container
                condition.wait()
            }
            guard state.loadAcquiring() == pending else { return false }
            state.storeReleasing(running)
            runner = thread
            return true
        }
        guard runs else { return }

        // Outside any layer: the first use after a global `reset()` may come from inside one,
        // and the hook's registrations are the global container's.
        // Its contributions to collection keys replace the last run's once it has finished.
        ContributionTable.shared.beginRun()
        if let hook = Self.hook { Layers.with(nil) { hook.registerAllServices() } }
        ContributionTable.shared.endRun()

        condition.locked(rank: .leaf) {
            runner = nil
            state.storeReleasing(done)
            condition.broadcast()
        }
    }
}
