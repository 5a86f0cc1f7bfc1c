#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small non-recursive mutual-exclusion lock.
///
/// `Synchronization.Mutex` owns the state it protects and hands it out as `sending`, which does
/// not fit state that holds non-`Sendable` user instances; this lock guards state kept beside it.
final class Lock: @unchecked Sendable {
    // @unchecked: the raw lock is only touched through lock()/unlock(), which are thread-safe.
    #if canImport(Darwin)
        private let raw: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let raw: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        raw = .allocate(capacity: 1)
        #if canImport(Darwin)
            raw.initialize(to: os_unfair_lock())
        #else
            raw.initialize(to: pthread_mutex_t())
            pthread_mutex_init(raw, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(raw)
        #endif
        raw.deinitialize(count: 1)
        raw.deallocate()
    }

    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(raw)
        #else
            pthread_mutex_lock(raw)
        #endif
    }

    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(raw)
        #else
            pthread_mutex_unlock(raw)
        #endif
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
