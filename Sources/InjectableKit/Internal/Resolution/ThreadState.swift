import CInjectableAtomics
import Foundation

/// A thread's resolutions in progress (factories are synchronous: one starts and ends on one
/// thread), for cycle detection, diagnostics and the graph scope.
final class ThreadState: @unchecked Sendable {
    // @unchecked: used only by its own thread, except `waitingFor`, guarded by `parking`, and
    // `frames`, which other threads read once `waitingFor` says this thread waits.
    // NB: @exclusivity(unchecked): no thread-local access-set lookup per access of own state.
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var graph: [EntryKey: Cell] = [:]
    /// How many resolutions are in progress on this thread, with frames or without.
    @exclusivity(unchecked) var depth = 0
    /// The entries whose instances this thread is building, innermost last.
    @exclusivity(unchecked) var buildStack: [Entry] = []
    /// Guards `waitingFor`; threads waiting for this thread's builds sleep on it.
    let parking = NSCondition()
    /// What this thread waits for another thread to build, if anything (see `wait(for:on:)`).
    var waitingFor: Awaited?
    /// Changes and resets made here, so that a build can tell its own factory's (`obtain`).
    @exclusivity(unchecked) var changes = 0
    /// Where code outside the getters asked for the outermost resolution (line 0: not said),
    /// where a mistake made inside is reported.
    @exclusivity(unchecked) var callFile: StaticString = ""
    @exclusivity(unchecked) var callLine: UInt = 0
    /// The key check this thread runs for `Injections.verify`, if it runs one.
    var verification: VerificationRun?
    /// The probe this thread runs a getter for (see `OverrideLifetimes`).
    var probe: OverrideLifetimes.Probe?
    @exclusivity(unchecked) private var nextToken: UInt64
    #if INJECTABLEKIT_INTERNAL_CHECKS
        /// The ranked locks this thread holds, in the order taken (see `LockRank`).
        var heldLockRanks: [LockRank] = []
    #endif

    private init() {
        let index = nextSerial(IK_THREAD_COUNT)
        nextToken = index << 40
    }

    static var current: ThreadState { unmanagedCurrent.takeUnretainedValue() }

    /// To borrow (`_withUnsafeGuaranteedRef`), not retain: the thread's key keeps it alive.
    static var unmanagedCurrent: Unmanaged<ThreadState> {
        @inline(__always) get {
            .fromOpaque(ik_thread_state_get() ?? Unmanaged.passUnretained(makeCurrent()).toOpaque())
        }
    }

    /// The state of a thread's first resolution: out of line, so that `current` is inlined.
    @inline(never)
    private static func makeCurrent() -> ThreadState {
        let state = spareStates.take() ?? ThreadState()
        let raw = Unmanaged.passRetained(state).toOpaque()
        keepUntilThreadExit(raw)
        ik_thread_state_set(raw)
        return state
    }

    /// Whether this thread is inside a frame or a build, read without retaining its state.
    static var isResolvingHere: Bool {
        @inline(__always) get {
            guard let raw = ik_thread_state_get() else { return false }
            return Unmanaged<ThreadState>.fromOpaque(raw)._withUnsafeGuaranteedRef {
                !$0.frames.isEmpty || !$0.buildStack.isEmpty
            }
        }
    }

    /// Names the thread while it runs, without the retain and release of ``current``.
    static var currentAddress: UInt { UInt(bitPattern: unmanagedCurrent.toOpaque()) }

    /// For the frame about to be pushed at `index`: its low 16 bits are the index plus one
    /// (frames nest less than `Resolver.depthLimit`), the rest a count unique on this thread.
    func makeToken(forFrameAt index: Int) -> UInt64 {
        assert(index < 0xFFFF, "frames nest less than 65,535 deep")
        nextToken &+= 1 << 16
        return nextToken | UInt64(index + 1)
    }
}
