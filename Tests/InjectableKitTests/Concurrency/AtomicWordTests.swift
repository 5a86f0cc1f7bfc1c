import Foundation
import Testing

@testable import InjectableKit

/// The library's one atomic type and its lock, the same code on every platform: what the
/// core's concurrency rests on. (No global state: each test makes its own words and objects.)
@Suite struct AtomicWordTests {
    @Test func eachOperationReadsAndWritesTheWordAsNamed() {
        let address = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        defer { address.deallocate() }
        address.initialize(to: 5)
        let word = AtomicWord(address)
        #expect(word.compareExchangeAcquiring(expected: 5, desired: 6))
        #expect(!word.compareExchangeAcquiring(expected: 5, desired: 7))
        #expect(!word.compareExchangeAcquiringOnFailureToo(expected: 5, desired: 7))
        #expect(word.loadAcquiring() == 6)
        #expect(word.exchangeReleasing(9) == 6)
        #expect(word.exchangeAcquiring(10) == 9)
        #expect(word.exchangeAcquiringAndReleasing(0) == 10)
        #expect(word.wrappingSubtractRelaxed(1) == 0)
        #expect(word.loadRelaxed() == UInt.max, "wraps")
        #expect(word.wrappingAddRelaxed(2) == UInt.max)
        #expect(word.wrappingAddSequentiallyConsistent(1) == 1)
        word.storeRelaxed(0b100)
        word.setBitsRelaxed(0b011)
        word.clearBitsRelaxed(0b110)
        #expect(word.loadSequentiallyConsistent() == 0b001)
        word.storeSequentiallyConsistent(3)
        word.storeReleasing(4)
        #expect(word.loadAcquiring() == 4)
    }

    @Test func anObjectsInlineWordIsItsFirstStoredProperty() {
        // The address `AtomicWord(inline:of:)` works out is the stored property Swift reads.
        let once = LazyStorage(\Injections.self)
        #expect(once.stateWord == LazyOnce.unresolved)
        once.state.storeRelaxed(LazyOnce.resolved)
        #expect(once.stateWord == LazyOnce.resolved)
        #expect(once.isResolved)
    }

    @Test func aLockKeepsCriticalSectionsOnManyThreadsApart() {
        let lock = Lock(rank: .leaf)
        let section = Section()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { lock.withLock { section.run() } }
        }
        #expect(section.overlaps == 0)
        #expect(section.runs == 4 * 2_000)
    }

    @Test func anEntrysInlineLockKeepsCriticalSectionsOnManyThreadsApart() {
        let entry = Entry(
            key: EntryKey(
                site: Site(#fileID, #function, #line, #column),
                type: ObjectIdentifier(AtomicWordTests.self)),
            owner: nil, holdsWeakly: false, timeToLive: nil)
        let section = Section()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 { entry.lock.withLock { section.run() } }
        }
        #expect(section.overlaps == 0)
        #expect(section.runs == 4 * 2_000)
    }
}

/// A critical section that counts the times another thread was inside it at once: it yields
/// the processor while inside, so that without a lock other threads run into it.
private final class Section: @unchecked Sendable {
    // @unchecked: touched only under the lock the test checks (which is the point: a broken
    // lock shows as overlaps, or as a data race under ThreadSanitizer).
    private var inside = false
    private(set) var overlaps = 0
    private(set) var runs = 0

    func run() {
        if inside { overlaps += 1 }
        inside = true
        sched_yield()
        runs += 1
        inside = false
    }
}
