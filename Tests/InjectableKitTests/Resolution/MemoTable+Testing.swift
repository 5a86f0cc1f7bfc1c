@testable import InjectableKit

/// Test-only access to memo tables: a table of a test's own, apart from the process's memo that
/// every resolution reads, and what a table holds.
extension MemoTable {
    /// The words of tables made with ``init(limit:keyLimit:)``, one table at a time.
    private static let ownWords = MemoWords(
        current: AtomicWord(.allocate(capacity: 1)), generation: AtomicWord(.allocate(capacity: 1)))

    /// A table with words of its own (which the next such table takes over), that gives at
    /// most `limit` keypath objects slots in all and `keyLimit` for one key.
    convenience init(limit: Int, keyLimit: Int) {
        Self.ownWords.current.storeRelaxed(0)  // no slots published yet
        Self.ownWords.generation.storeRelaxed(1)  // a generation starts at 1, as the process's does
        self.init(limit: limit, keyLimit: keyLimit, words: Self.ownWords)
    }

    /// The entry word recorded in this table for `keyPath` at `generation` (as
    /// `MemoTable.entryWord(for:at:in:)` reads the process's table by default).
    func entryWord(for keyPath: AnyKeyPath, at generation: UInt64) -> UInt {
        Self.entryWord(for: keyPath, at: generation, in: words)
    }

    /// How many keypath objects wait for their second resolution.
    var seenCount: Int { lock.withLock { seenOnce.count } }

    /// How many keypath objects have slots, and how many keys they stand for.
    var counts: (objects: Int, keys: Int) {
        lock.withLock { (objectCount, records.count) }
    }
}

extension OverrideBox {
    /// The override, retained; `nil` once a change has emptied the box.
    var current: AnyOverride? { served.0 }
}
