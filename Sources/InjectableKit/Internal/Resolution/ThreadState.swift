import CInjectableAtomics
import Foundation

/// Per-thread resolution state: the stack of resolutions in progress, for cycle detection,
/// diagnostics and the graph scope.
///
/// Factories are synchronous, so a resolution starts and ends on one thread.
@usableFromInline
final class ThreadState: @unchecked Sendable {
    // @unchecked: used only by its own thread, except `waitingFor`, guarded by `parking`, and
    // `frames`, which other threads read once `waitingFor` says this thread waits.
    // NB: @exclusivity(unchecked) skips the run-time exclusivity check (a thread-local access
    // set lookup on every access) for state that only its own thread mutates.
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
    /// How many changes of overrides or scope resets this thread has made, so that a build can
    /// tell a change its own factory made (see `Entry.obtain`).
    @exclusivity(unchecked) var changes = 0
    /// Where code outside the getters asked for the outermost resolution running here, if it
    /// said (a line other than 0): a mistake made inside is reported there.
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

    static var current: ThreadState {
        if let raw = ik_thread_state_get() {
            return Unmanaged<ThreadState>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// This thread's state, to borrow (`_withUnsafeGuaranteedRef`) rather than retain: the
    /// thread's key keeps it alive.
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

    /// Whether this thread is inside a resolution's frame or a build, read without retaining
    /// its state.
    static var isResolvingHere: Bool {
        @inline(__always) get {
            guard let raw = ik_thread_state_get() else { return false }
            return Unmanaged<ThreadState>.fromOpaque(raw)._withUnsafeGuaranteedRef {
                !$0.frames.isEmpty || !$0.buildStack.isEmpty
            }
        }
    }

    /// The address of the current thread's state, which names the thread while it runs,
    /// without the retain and release that reading ``current`` costs.
    static var currentAddress: UInt {
        if let raw = ik_thread_state_get() { return UInt(bitPattern: raw) }
        return UInt(bitPattern: Unmanaged.passUnretained(makeCurrent()).toOpaque())
    }

    /// A handle for the frame about to be pushed at `index`: the `Injections` value its getter
    /// receives carries it, and the getter's helpers find the frame by it at once. Its low 16
    /// bits are the frame's index plus one (frames never nest past `Resolver.depthLimit`), the
    /// rest a count that makes it unique on this thread.
    func makeToken(forFrameAt index: Int) -> UInt64 {
        assert(index < 0xFFFF, "frames nest less than 65,535 deep")
        nextToken &+= 1 << 16
        return nextToken | UInt64(index + 1)
    }
}
