import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small non-recursive lock, stored inline in the object whose state it guards, for critical
/// sections of a few dozen instructions that never run user code.
///
/// `Synchronization.Mutex` owns the state it protects and hands it out as `sending`, which does
/// not fit state that holds non-`Sendable` user instances; this lock guards state kept beside it.
/// On Darwin it is `os_unfair_lock` (through `Mutex<Void>`). Elsewhere it is a compare-and-swap
/// on an atomic word, yielding the processor while contended: about a third of the cost of a
/// `pthread_mutex` pair on the resolution fast path.
/// NB: not `Mutex<Void>` on Linux, whose contended path hands the lock over through a futex
/// inside the uninstrumented Synchronization library, so ThreadSanitizer reports false races
/// between the critical sections it orders.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex = Mutex(())
    #else
        @usableFromInline let locked = Atomic<Bool>(false)
    #endif

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
            mutex._unsafeLock()
        #else
            while !locked.compareExchange(
                expected: false, desired: true, successOrdering: .acquiring,
                failureOrdering: .relaxed
            ).exchanged {
                sched_yield()
            }
        #endif
    }

    @inlinable
    func unlock() {
        #if canImport(Darwin)
            mutex._unsafeUnlock()
        #else
            locked.store(false, ordering: .releasing)
        #endif
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
