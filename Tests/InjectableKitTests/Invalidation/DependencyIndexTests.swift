import Testing

@testable import InjectableKit

/// A key's argument, equal to another with the same `id`, that counts the deinits it saw the
/// dependency index's lock free in (one under the lock, whose deinit resolved, reset or
/// recorded, would wait for it forever).
final class IndexAskingArgument: Hashable, Sendable {
    let id: Int
    let index: DependencyIndex
    let deinits: Counter

    init(_ id: Int, index: DependencyIndex, deinits: Counter) {
        (self.id, self.index, self.deinits) = (id, index, deinits)
    }

    static func == (lhs: IndexAskingArgument, rhs: IndexAskingArgument) -> Bool {
        lhs.id == rhs.id
    }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    deinit {
        if index.lock.word.word.loadRelaxed() == LockWord.free { deinits.increment() }
    }
}

extension Injections {
    subscript(indexAsking argument: IndexAskingArgument) -> Int { 0 }
}

/// What the dependency index lets go of, it lets go of once its lock is free: a keypath's
/// arguments are the app's objects, whose deinits may resolve, reset or record.
@Suite(aMinutePerTest) struct DependencyIndexTests {
    /// A dependent entry of its own, whose build resolved `\.[indexAsking: id]`, recorded in
    /// `index` (its argument made and dropped here, so that the index holds it last).
    private func dependent(
        resolving id: Int, in index: DependencyIndex, counting deinits: Counter
    ) -> Entry {
        let entry = Entry(
            key: EntryKey(
                site: Site(#fileID, #function, #line, #column), type: ObjectIdentifier(Int.self)),
            owner: nil, holdsWeakly: false, timeToLive: nil)
        index.record(
            entry,
            key: \Injections.[indexAsking: IndexAskingArgument(id, index: index, deinits: deinits)],
            type: ObjectIdentifier(Int.self), keyRegistries: [1], typeRegistries: [])
        return entry
    }

    @Test func anEdgesKeypathIsReleasedOutsideTheIndexsLock() {
        let index = DependencyIndex()
        let deinits = Counter()
        let dependent = dependent(resolving: 7, in: index, counting: deinits)
        // Folded first, so that the index's tables, not its log, hold the keypath last.
        index.locked { index.fold() }
        #expect(deinits.count == 0)
        index.forget(dependent, asSource: false)
        #expect(deinits.count == 1)
    }

    @Test func theKeypathATableKeptAsItsKeyIsReleasedOutsideTheIndexsLock() {
        let index = DependencyIndex()
        let deinits = Counter()
        // Two keypath objects of one value: the table keeps the first as its key.
        let first = dependent(resolving: 7, in: index, counting: deinits)
        let second = dependent(resolving: 7, in: index, counting: deinits)
        index.locked { index.fold() }
        index.forget(first, asSource: false)
        index.forget(second, asSource: false)
        #expect(deinits.count == 2)
    }
}
