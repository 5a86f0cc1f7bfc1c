import CInjectableAtomics
import Foundation

/// A small non-recursive blocking lock, kept beside the state it guards, for critical sections
/// of a few dozen instructions that never run user code. Its words are allocated once, with the
/// lock; ``LockWord`` is the same lock over words kept inline in an object.
///
/// `Synchronization.Mutex` owns the state it protects and hands it out as `sending`, which does
/// not fit state that holds non-`Sendable` user instances; this lock guards state kept beside it.
/// It is a three-state `AtomicWord` (free, held, held with sleepers), the same code on every
/// platform: taking a free lock is one compare-and-swap, and a thread that finds it held spins
/// briefly, then sleeps on the lock's own condition until the holder wakes it.
/// NB: not `Mutex<Void>` (`os_unfair_lock` on Darwin, a futex on Linux): its hand-over happens
/// inside the uninstrumented Synchronization library, so ThreadSanitizer reports false races
/// between the critical sections it orders; it would be a second code path that CI on Linux
/// never runs; and the Synchronization module needs iOS 18 and macOS 15. Here the hand-over is
/// the word's acquire and release, which ThreadSanitizer sees; sleeping goes through a pthread
/// condition it also sees.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    /// The lock's words, which the lock allocates and frees.
    @usableFromInline let word: LockWord

    /// - Parameter rank: Where the lock stands in the core's lock order (checked only in
    ///   internal-checks builds).
    init(rank: LockRank) {
        let address = UnsafeMutablePointer<UInt>.allocate(capacity: 2)
        address.initialize(repeating: LockWord.free, count: 2)
        word = LockWord(address, rank: rank)
    }

    deinit {
        word.releaseSleepers()
        word.word.address.deallocate()
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try word.withLock(body)
    }
}

/// The operations of ``Lock`` on two words kept anywhere: in the lock's own allocation, or
/// inline in an object the fast path reads (an `Entry`), where a pointer to follow would cost
/// every resolution a load. The first is the lock's state; the second, its sleepers' condition
/// (retained), made by the first thread that has to sleep, 0 until then. Whoever keeps the
/// words calls ``releaseSleepers()`` before freeing them.
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
        // An exchange rather than a store: the old state says whether anyone sleeps. Acquiring
        // too, so that a sleeper's condition, made before it marked the lock contended, is seen.
        if word.exchangeAcquiringAndReleasing(LockWord.free) == LockWord.contended {
            wakeSleepers()
        }
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// The lock's second word: its sleepers' condition, once a thread has had to sleep.
    private var sleepersWord: AtomicWord { AtomicWord(word.address + 1) }

    /// The sleepers' condition, if a thread has made it.
    private var madeSleepers: Unmanaged<NSCondition>? {
        UnsafeRawPointer(bitPattern: sleepersWord.loadAcquiring()).map(Unmanaged.fromOpaque)
    }

    /// The condition the lock's sleepers wait on, made on first use: contention on these short
    /// critical sections is rare, so most locks never make one.
    private var sleepers: NSCondition {
        if let existing = madeSleepers { return existing.takeUnretainedValue() }
        let made = Unmanaged.passRetained(NSCondition())
        let word = UInt(bitPattern: made.toOpaque())
        if sleepersWord.compareExchangeReleasing(expected: 0, desired: word) {
            return made.takeUnretainedValue()
        }
        made.release()  // another thread made one first; no one has seen this one
        return self.sleepers
    }

    /// Releases the sleepers' condition, if one was made: call when the lock's words go.
    func releaseSleepers() {
        madeSleepers?.release()
    }

    @inline(never)
    private func lockContended() {
        for _ in 0..<64 {
            if word.loadRelaxed() == LockWord.free,
                word.compareExchangeAcquiring(expected: LockWord.free, desired: LockWord.held)
            {
                return
            }
        }
        // Made before the lock is marked contended, so that the unlock that finds the mark
        // finds the condition too.
        let sleepers = self.sleepers
        // Marked contended before sleeping, so that the holder's unlock wakes us. A thread
        // that takes the lock this way leaves it marked contended: its unlock may wake
        // sleepers that are not there, which costs time but never correctness.
        while word.exchangeAcquiringAndReleasing(LockWord.contended) != LockWord.free {
            sleepers.lock()
            // Checked under the condition's mutex, which the unlocking thread takes before
            // it broadcasts: either we see the lock freed, or we are asleep when it wakes us.
            if word.loadRelaxed() == LockWord.contended { sleepers.wait() }
            sleepers.unlock()
        }
    }

    @usableFromInline @inline(never)
    func wakeSleepers() {
        // A lock marked contended has its condition (see `lockContended`).
        guard let sleepers = madeSleepers?.takeUnretainedValue() else { return }
        sleepers.lock()
        sleepers.broadcast()
        sleepers.unlock()
    }
}
