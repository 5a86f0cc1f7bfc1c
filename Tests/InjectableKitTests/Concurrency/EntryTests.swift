import Foundation
import TestSupport
import Testing

@testable import InjectableKit

/// An entry's state machine (see `Internal/README.md`), driven directly: builds, waiters,
/// clears during a build, retirement, and what is never stored.
@Suite(aMinutePerTest) struct EntryTests {
    @Test func anEntryBuildsOnceAndThenServesItsInstance() {
        let entry = makeEntry()
        let builds = Counter()
        let first = entry.obtain(
            {
                builds.increment()
                return EntryBox()
            }, on: .current)
        let second = entry.obtain(
            {
                builds.increment()
                return EntryBox()
            }, on: .current)
        #expect(first != nil && first === second)
        #expect(builds.count == 1)
        #expect(entry.value(as: EntryBox.self, view: false) === first)
    }

    @Test func aBuildClearedWhileItRunsIsBuiltAgainAndItsWaitersGetTheNewInstance() {
        let entry = makeEntry()
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let builds = Counter()
        let results = Results()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let value = entry.obtain(
                {
                    if builds.increment() == 1 {
                        started.signal()
                        _ = gate.wait(timeout: .now() + 10)
                    }
                    return EntryBox()
                }, on: .current)
            results.append(value)
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                results.append(
                    entry.obtain(
                        {
                            builds.increment()
                            return EntryBox()
                        }, on: .current))
            }
        }
        entry.clear()  // while the first build is held
        gate.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        let instances = results.all
        #expect(instances.count == 4)
        #expect(instances.allSatisfy { $0 != nil && $0 === instances[0] })
        #expect(builds.count == 2, "the builder built again; no waiter built")
        #expect(entry.value(as: EntryBox.self, view: false) === instances[0])
    }

    @Test func aBuildingEntryIsNeverRetiredAndARetiredOneNeverBuilds() {
        let entry = makeEntry()
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = entry.obtain(
                {
                    started.signal()
                    _ = gate.wait(timeout: .now() + 10)
                    return EntryBox()
                }, on: .current)
            done.signal()
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        let retiredWhileBuilding = entry.retireIfIdle()
        #expect(!retiredWhileBuilding)
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)

        let idle = makeEntry()
        #expect(idle.retireIfIdle())
        let builds = Counter()
        #expect(
            idle.obtain(
                {
                    builds.increment()
                    return EntryBox()
                }, on: .current) == nil)
        #expect(builds.count == 0)
    }

    @Test func nilIsNeverStoredNotEvenInsideAnExistential() {
        let entry = makeEntry(type: Any.self)
        let builds = Counter()
        for _ in 0..<3 {
            _ = entry.obtain(
                {
                    builds.increment()
                    return Optional<Int>.none as Any
                }, on: .current)
        }
        #expect(builds.count == 3)
        _ = entry.obtain(
            {
                builds.increment()
                return 7 as Any
            }, on: .current)
        _ = entry.obtain(
            {
                builds.increment()
                return 8 as Any
            }, on: .current)
        #expect(builds.count == 4)
    }

    @Test func aWeakEntryKeepsItsInstanceOnlyWhileItIsHeldAndNeverKeepsAValue() {
        let entry = makeEntry(weak: true)
        var held: EntryBox? = entry.obtain({ EntryBox() }, on: .current)
        #expect(entry.value(as: EntryBox.self, view: false) === held)
        held = nil
        #expect(entry.value(as: EntryBox.self, view: false) == nil)

        let values = makeEntry(type: Int.self, weak: true)
        let builds = Counter()
        _ = values.obtain(
            {
                builds.increment()
                return 1
            }, on: .current)
        _ = values.obtain(
            {
                builds.increment()
                return 1
            }, on: .current)
        #expect(builds.count == 2)
    }

    @Test func anEntryReadsItsInstanceAsTheViewAKeyAdopted() {
        let entry = makeEntry(type: EntryBox.self)
        let instance = entry.obtain({ EntryBox() }, on: .current)
        #expect(entry.adoptView((any EntryShape).self))
        #expect(entry.value(as: (any EntryShape).self, view: true) as? EntryBox === instance)
        // One view per entry.
        #expect(!entry.adoptView(AnyObject.self))
        entry.clear()
        let rebuilt = entry.obtain({ EntryBox() }, on: .current)
        #expect(entry.value(as: (any EntryShape).self, view: true) as? EntryBox === rebuilt)
    }
}

private protocol EntryShape: AnyObject {}

private final class EntryBox: EntryShape, Sendable {}

/// Results appended from several threads.
private final class Results: Sendable {
    // Guarded by the mutex; the boxes are immutable and Sendable.
    private let values = Guarded<[EntryBox?]>([])
    func append(_ value: EntryBox?) { values.withLock { $0.append(value) } }
    var all: [EntryBox?] { values.withLock { $0 } }
}

extension Entry {
    /// ``obtain(_:on:into:)`` for tests: the instance, or `nil` if the entry is retired.
    fileprivate func obtain<Value>(_ make: () -> Value, on thread: ThreadState) -> Value? {
        let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { slot.deallocate() }
        return obtain(make, on: thread, into: slot) ? slot.move() : nil
    }

    /// Drops the instance, as a scope reset does to each of its entries.
    fileprivate func clear() {
        withExtendedLifetime(detach()) {}  // the instance's deinit runs outside the lock
    }
}

private func makeEntry<Value>(type: Value.Type = EntryBox.self, weak: Bool = false) -> Entry {
    Entry(
        key: EntryKey(
            site: Site(#fileID, #function, #line, #column), type: ObjectIdentifier(Value.self)),
        owner: nil, holdsWeakly: weak, timeToLive: nil)
}
