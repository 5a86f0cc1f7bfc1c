import Synchronization

/// A small non-recursive lock, stored inline in the object whose state it guards.
///
/// `Synchronization.Mutex` owns the state it protects and hands it out as `sending`, which does
/// not fit state that holds non-`Sendable` user instances; this lock guards state kept beside it.
/// NB: `_unsafeLock()` / `_unsafeUnlock()` are `Mutex<Void>`'s public (underscored) lock and
/// unlock: a compare-and-swap each when uncontended (a futex on Linux, `os_unfair_lock` on
/// Darwin), about a third of a `pthread_mutex` pair in the resolution fast path.
struct Lock: ~Copyable, Sendable {
    private let mutex = Mutex(())

    @inline(__always)
    func lock() {
        mutex._unsafeLock()
    }

    @inline(__always)
    func unlock() {
        mutex._unsafeUnlock()
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
