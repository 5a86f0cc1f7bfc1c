import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One keypath resolution in progress on a thread.
@usableFromInline
struct Frame {
    let keyPath: AnyKeyPath
    /// Identifies the `Injections` value handed to this frame's getter.
    let token: UInt64
    let valueType: Any.Type
    /// The thread's resolution depth this frame's resolution runs at (1 for the outermost).
    let depth: Int
    /// Whether an override's factory, not the keypath's getter, is building this frame's value.
    let servedByOverride: Bool
    /// The registration's name, learned from a helper or a nested `resolve` in its getter.
    var name: StaticString?
    /// The scope entry of the last helper called directly for this frame, and how many.
    var helperEntry: Entry?
    var helperCount = 0
    /// How many of this frame's helpers are running their factories: a helper called while
    /// one runs is nested in it (`cached(A(b: shared(B())))`); otherwise the getter calls
    /// helpers one after another, which one key cannot be served from.
    var helpersRunning = 0
    /// The scope of the frame's helper, for diagnostics (`nil`: no helper, unique).
    var scope: Injections.Scope?
    /// Whether the frame's helper built its instance (rather than reusing a cached one).
    var built = false
}

/// Per-thread resolution state: the stack of resolutions in progress, for cycle detection,
/// diagnostics and the graph scope.
///
/// Factories are synchronous, so a resolution starts and ends on one thread.
@usableFromInline
final class ThreadState: @unchecked Sendable {
    // @unchecked: used only by its own thread, except `frames` and `waitingFor`, which other
    // threads read under `BuildCoordinator.condition` while this thread waits on it.
    // NB: @exclusivity(unchecked) skips the run-time exclusivity check (a thread-local access
    // set lookup on every access) for state that only its own thread mutates.
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var graph: [EntryKey: Cell] = [:]
    /// How many resolutions are in progress on this thread, with frames or without.
    @exclusivity(unchecked) var depth = 0
    /// The entries whose instances this thread is building, innermost last.
    @exclusivity(unchecked) var buildStack: [Entry] = []
    var waitingFor: Entry?
    /// How many changes of overrides or scope resets this thread has made, so that a build can
    /// tell a change its own factory made (see `Entry.obtain`).
    @exclusivity(unchecked) var changes = 0
    /// The key check this thread runs for `Injections.verify`, if it runs one.
    var verification: VerificationRun?
    @exclusivity(unchecked) private var nextToken: UInt64

    private static let threadCount = Atomic<UInt64>(0)

    private init() {
        let index = Self.threadCount.wrappingAdd(1, ordering: .relaxed).newValue
        nextToken = index << 32
    }

    static var current: ThreadState {
        if let raw = pthread_getspecific(threadStateKey) {
            return Unmanaged<ThreadState>.fromOpaque(raw).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(threadStateKey, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    func makeToken() -> UInt64 {
        nextToken &+= 1
        return nextToken
    }

    /// The index of the frame whose getter received the `Injections` value with `token`.
    func frameIndex(token: UInt64) -> Int? {
        guard token != 0 else { return nil }
        return frames.lastIndex { $0.token == token }
    }
}

private let threadStateKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { raw in
        #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(raw).release()
        #else
            if let raw { Unmanaged<ThreadState>.fromOpaque(raw).release() }
        #endif
    }
    precondition(status == 0, "InjectableKit: pthread_key_create failed (\(status))")
    return key
}()
