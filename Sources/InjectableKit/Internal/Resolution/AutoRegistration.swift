import CInjectableAtomics
import Foundation

/// Runs ``AutoRegistering/registerAllServices()`` once before the container's first use; the
/// hook's own thread may use the container meanwhile, other threads wait.
enum AutoRegistration {
    private static let pending: UInt = 0
    private static let running: UInt = 1
    private static let done: UInt = 2

    private static var state: AtomicWord { AtomicWord(static: IK_AUTO_REGISTRATION) }
    private static let condition = NSCondition()
    // Guarded by `condition`: the thread running the hook.
    nonisolated(unsafe) private static var runner: ThreadState?

    /// Looked up once: a failed conformance lookup scans every conformance in the process.
    // nonisolated(unsafe): a metatype, written once by the lazy initialiser; it holds no state.
    nonisolated(unsafe) private static let hook =
        (Injections.self as Any.Type) as? any AutoRegistering.Type

    @inline(__always)
    static func ensure() {
        if state.loadAcquiring() != done { runIfNeeded() }
    }

    /// Whether this thread runs the hook now, whose registrations are the app's, on purpose.
    static var isRunningHook: Bool {
        let thread = ThreadState.current
        return condition.locked(rank: .leaf) { runner === thread }
    }

    /// Makes the hook run again before the next access (after `reset()`).
    static func rearm() {
        condition.locked(rank: .leaf) {
            if state.loadRelaxed() == done { state.storeReleasing(pending) }
        }
        // The fast path skips `ensure()` for keys the memo knows: make them all stale.
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

        // Outside any layer: the first use after `reset()` may come from one; the hook's global.
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
