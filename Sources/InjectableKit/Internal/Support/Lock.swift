import CInjectableAtomics
import Foundation

/// A non-recursive blocking lock kept beside the state it guards, for short critical sections
/// that run no user code (`Internal/README.md`, "Locks and their order").
/// NB: not `Mutex`: it owns its state (unfit for non-`Sendable` user instances), ThreadSanitizer
/// does not see its hand-over (false races), and it needs iOS 18 and macOS 15.
@usableFromInline
struct Lock: ~Copyable, Sendable {
    @usableFromInline let word: LockWord

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

/// ``Lock`` on two words kept anywhere: its state, and its sleepers' condition (retained; 0
/// until made). Whoever keeps the words calls ``releaseSleepers()`` before freeing them.
@usableFromInline
struct LockWord: Sendable {
    /// `free`, `held` or `contended` (held, and a thread may sleep on it).
    @usableFromInline let word: AtomicWord
    @usableFromInline static var free: UInt { 0 }
    @usableFromInline static var held: UInt { 1 }
    @usableFromInline static var contended: UInt { 2 }

    #if INJECTABLEKIT_INTERNAL_CHECKS
        @usableFromInline let rank: LockRank
    #endif

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

    private var sleepersWord: AtomicWord { AtomicWord(word.address + 1) }

    private var madeSleepers: Unmanaged<NSCondition>? {
        UnsafeRawPointer(bitPattern: sleepersWord.loadAcquiring()).map(Unmanaged.fromOpaque)
    }

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
        // Marked contended before sleeping, so that the holder's unlock wakes us; taken so, it
        // stays marked, and its unlock may wake no one: a cost in time, never in correctness.
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
