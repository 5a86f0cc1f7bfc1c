import Testing

@testable import InjectableKit

/// A key's argument that counts the deinits it saw the dependency index's lock free in (one
/// under the lock, whose deinit resolved, reset or recorded, would wait for it forever).
final class IndexAskingArgument: Hashable, Sendable {
    let index: DependencyIndex
    let deinits: Counter

    init(index: DependencyIndex, deinits: Counter) {
        (self.index, self.deinits) = (index, deinits)
    }

    static func == (lhs: IndexAskingArgument, rhs: IndexAskingArgument) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

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
    @Test func anEdgesKeypathIsReleasedOutsideTheIndexsLock() {
        let index = DependencyIndex()
        let deinits = Counter()
        let dependent = Entry(
            key: EntryKey(
                site: Site(#fileID, #function, #line, #column), type: ObjectIdentifier(Int.self)),
            owner: nil, holdsWeakly: false, timeToLive: nil)
        index.record(
            dependent,
            key: \Injections.[indexAsking: IndexAskingArgument(index: index, deinits: deinits)],
            type: ObjectIdentifier(Int.self), keyRegistries: [1], typeRegistries: [])
        // Folded first, so that the index's tables, not its log, hold the keypath last.
        do {
            let folded = index.lock.withLock { index.fold() }
            withExtendedLifetime(folded) {}
        }
        #expect(deinits.count == 0)
        index.forget(dependent, asSource: false)
        #expect(deinits.count == 1)
    }
}
