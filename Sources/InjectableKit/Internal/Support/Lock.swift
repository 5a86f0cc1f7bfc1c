import CInjectableAtomics
import Foundation

/// A small non-recursive blocking lock, kept beside the state it guards, for critical sections
/// of a few dozen instructions that never run user code. Its word is allocated once, with the
/// lock; ``LockWord`` is the same lock over a word kept inline in an object.
///
/// `Synchronization.Mutex` owns the state it protects and hands it out as `sending`, which does
/// not fit state that holds non-`Sendable` user instances; this lock guards state kept beside it.
/// It is a three-state `AtomicWord` (free, held, held with sleepers), the same code on every
/// platform: taking a free lock is one compare-and-swap, and a thread that finds it held spins
/// briefly, then sleeps until the holder wakes it.
/// NB: not `Mutex<Void>` (`os_unfair_lock` on Darwin, a futex on Linux): its hand-over happens
/// inside the uninstrumented Synchronization library, so ThreadSanitizer reports false races
/// between the critical sections it orders; it would be a second code path that CI on Linux
/// never runs; and the Synchronization module needs iOS 18 and macOS 15. Here the hand-over is the word's acquire and release, which ThreadSanitizer sees;
/// sleeping goes through a pthread condition it also sees.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    /// The lock's word, which the lock allocates and frees.
    @usableFromInline let word: LockWord

    /// - Parameter rank: Where the lock stands in the core's lock order (checked only in
    ///   internal-checks builds).
    init(rank: LockRank = .unranked) {
        let address = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        address.initialize(to: LockWord.free)
        word = LockWord(address, rank: rank)
    }

    deinit {
        word.word.address.deallocate()
    }

    @inline(__always)
    func lock() { word.lock() }

    @inlinable
    func unlock() { word.unlock() }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try word.withLock(body)
    }
}

/// The operations of ``Lock`` on a word kept anywhere: in the lock's own allocation, or inline
/// in an object the fast path reads (an `Entry`), where a pointer to follow would cost every
/// resolution a load.
@usableFromInline
struct LockWord: Sendable {
    /// `free`, `held` or `contended` (held, and a thread may be asleep waiting for it).
    @usableFromInline let word: AtomicWord
    @usableFromInline static var free: UInt { 0 }
    @usableFromInline static var held: UInt { 1 }
    @usableFromInline static var contended: UInt { 2 }

    #if INJECTABLEKIT_INTERNAL_CHECKS
        @usableFromInline let rank: LockRank
    #endif

    /// The lock whose word is at `address`, which holds `free` or the state another
    /// `LockWord` of the same address left.
    @inlinable @inline(__always)
    init(_ address: UnsafeMutablePointer<UInt>, rank: LockRank) {
        word = AtomicWord(address)
        #if INJECTABLEKIT_INTERNAL_CHECKS
            self.rank = rank
        #endif
    }

    @inline(__always)
    func lock() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            LockRank.willLock(rank)
        #endif
        if !word.compareExchangeAcquiring(expected: LockWord.free, desired: LockWord.held) {
            lockContended()
        }
    }

    @inlinable
    func unlock() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            LockRank.didUnlock(rank)
        #endif
        // An exchange rather than a store: the old state says whether anyone sleeps.
        if word.exchangeReleasing(LockWord.free) == LockWord.contended {
            LockWord.wakeSleepers()
        }
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Sleeping threads of every lock wait on this one condition: contention on these short
    /// critical sections is rare, so one condition costs less than one per lock, and a
    /// woken thread that finds its lock still held simply sleeps again.
    private static let sleepers = NSCondition()

    @inline(never)
    private func lockContended() {
        for _ in 0..<64 {
            if word.loadRelaxed() == LockWord.free,
                word.compareExchangeAcquiring(expected: LockWord.free, desired: LockWord.held)
            {
                return
            }
        }
        // Marked contended before sleeping, so that the holder's unlock wakes us. A thread
        // that takes the lock this way leaves it marked contended: its unlock may wake
        // sleepers that are not there, which costs time but never correctness.
        while word.exchangeAcquiring(LockWord.contended) != LockWord.free {
            LockWord.sleepers.lock()
            // Checked under the condition's mutex, which the unlocking thread takes before
            // it broadcasts: either we see the lock freed, or we are asleep when it wakes us.
            if word.loadRelaxed() == LockWord.contended { LockWord.sleepers.wait() }
            LockWord.sleepers.unlock()
        }
    }

    @usableFromInline @inline(never)
    static func wakeSleepers() {
        sleepers.lock()
        sleepers.broadcast()
        sleepers.unlock()
    }
}
