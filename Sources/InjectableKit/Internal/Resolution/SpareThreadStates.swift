import CInjectableAtomics

// No Foundation here: on Linux it re-exports Glibc, whose `pthread_key_t` would clash with the
// Darwin stand-in's when CI type-checks the Darwin branch (Tests/AppleStubs).
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Hands a new thread's retained state to the system's thread-exit destructor.
func keepUntilThreadExit(_ raw: UnsafeMutableRawPointer) {
    pthread_setspecific(threadStateKey, raw)
}

private let threadStateKey: pthread_key_t = {
    var key = pthread_key_t()
    // The destructor's parameter is optional on Linux only: one closure converts on both.
    let status = pthread_key_create(&key) { raw in releaseThreadState(raw) }
    precondition(status == 0, "InjectableKit: pthread_key_create failed (\(status))")
    return key
}()

/// `threadStateKey`'s destructor: keeps an exiting thread's state for the next new thread.
private func releaseThreadState(_ raw: UnsafeMutableRawPointer?) {
    // A later key's destructor that resolves makes the thread a state of its own again.
    ik_thread_state_set(nil)
    if let raw { spareStates.keep(Unmanaged<ThreadState>.fromOpaque(raw).takeRetainedValue()) }
}

/// Never freed (`Internal/README.md`, "Waiting and cycles" 5).
let spareStates = SpareThreadStates()

final class SpareThreadStates: @unchecked Sendable {
    // @unchecked: `states` is guarded by `lock`.
    private let lock = Lock(rank: .spareStates)
    private var states: [ThreadState] = []

    func keep(_ state: ThreadState) {
        // Released before the state is shared: a probe's thread ends inside a getter.
        state.frames = []
        state.graph = [:]
        state.depth = 0
        state.callLine = 0
        state.buildStack = []
        state.verification = nil
        state.probe = nil
        #if INJECTABLEKIT_INTERNAL_CHECKS
            state.heldLockRanks = []
        #endif
        lock.withLock { states.append(state) }
    }

    func take() -> ThreadState? {
        lock.withLock { states.popLast() }
    }
}
