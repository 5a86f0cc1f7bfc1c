import Foundation

/// The instances one scope holds, one entry per registration (and per argument value).
final class ScopeStorage: @unchecked Sendable {
    // @unchecked: every stored property but `lock` is guarded by `lock`.
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart; the run-time check only costs.
    let lock = Lock(rank: .scopeStorage)
    @exclusivity(unchecked) var entries: [EntryKey: Entry] = [:]
    /// How many `entries` are `isForgettable`.
    @exclusivity(unchecked) var forgettableEntries = 0
    /// The entries by owner key (`Internal/README.md`, "Memory bounds").
    @exclusivity(unchecked) var byOwner: [KeyOrType: [Entry]] = [:]
    /// Entries `byOwner` does not hold yet, filed at its next question.
    @exclusivity(unchecked) var unindexed = Backlog<Entry>()

    /// The count of forgettable entries at which idle, empty ones are next forgotten.
    @exclusivity(unchecked) private var pruneAt = ScopeStorage.minimumPruneAt
    static let minimumPruneAt = 256

    /// The entry for `key`, made by `make` on first use; prunes as "Memory bounds" says.
    func entry(for key: EntryKey, make: () -> Entry) -> Entry {
        var forgotten: [Entry] = []
        var loaded: [AnyObject] = []
        defer { withExtendedLifetime((forgotten, loaded)) {} }  // released outside the lock
        return lock.withLock {
            // Pruned before the new entry is filed, which is idle and empty too.
            if key.isForgettable && forgettableEntries + 1 >= pruneAt && entries[key] == nil {
                forgotten = forget {
                    Self.mayForget($0) && $0.isIdleAndEmpty(keeping: &loaded)
                }
                pruneAt = max(Self.minimumPruneAt, (forgettableEntries + 1) * 2)
            }
            // Found or filed with one look-up.
            var made = false
            func file() -> Entry {
                made = true
                return make()
            }
            func found(_ entry: inout Entry) -> Entry { entry }
            let entry = found(&entries[key, default: file()])
            guard made else { return entry }
            if entry.owner != nil, unindexed.note(entry) { indexOwners() }
            if key.isForgettable { forgettableEntries += 1 }
            checkInvariants()
            return entry
        }
    }

    /// An entry the memo names stays, emptied: its call sites read it, and a replacement would
    /// leave them on the framed path (`Internal/README.md`, "Entry", idle → retired).
    static func mayForget(_ entry: Entry) -> Bool {
        guard case .owner = entry.key.registration else { return entry.key.isForgettable }
        return !Core.shared.memo.names(entry)
    }

    /// Call with `lock` locked. (Each is still in `entries`: only `forget`, which calls this
    /// first, removes one.)
    private func indexOwners() {
        for entry in unindexed.take() {
            byOwner[KeyOrType(key: entry.owner.unsafelyUnwrapped), default: []].append(entry)
        }
    }

    /// Retires and forgets the matching idle entries. Call with `lock` locked; release what it
    /// returns once no lock is held.
    private func forget(among candidates: [Entry]? = nil, where matches: (Entry) -> Bool)
        -> [Entry]
    {
        indexOwners()
        var forgotten: [Entry] = []
        for entry in candidates ?? Array(entries.values)
        where entries[entry.key] === entry && matches(entry) && entry.retireIfIdle() {
            entries[entry.key] = nil
            forgotten.append(entry)
            if let owner = entry.owner.map({ KeyOrType(key: $0) }) {
                byOwner[owner]?.removeAll { $0 === entry }
                if byOwner[owner]?.isEmpty == true { byOwner[owner] = nil }
            }
        }
        forgettableEntries -= forgotten.count { $0.key.isForgettable }
        entries.shrinkIfSparse()
        byOwner.shrinkIfSparse()
        checkInvariants()
        return forgotten
    }

    /// Drops every instance (or those `owner`'s resolutions made) and what was built from them;
    /// forgets the entries `mayForget` lets.
    func reset(ownedBy owner: AnyKeyPath? = nil) {
        let matched = owner.map(entries(ownedBy:))
        if matched?.isEmpty == true { return }
        ThreadState.current.changes += 1
        let (dropped, forgotten) = lock.withLock {
            let dropped = matched ?? Array(entries.values)
            let forgotten =
                forgettableEntries > 0 ? forget(among: matched, where: Self.mayForget) : []
            return (dropped, forgotten)
        }
        // After the lock (a deinit may resolve through this scope); the order: edge rule 5.
        var walked: [Entry] = []
        for entry in dropped {
            withExtendedLifetime(entry.detach()) {}  // the instance's deinit runs outside the lock
            if entry.edgeFlags.loadAcquiring() != 0 { walked.append(entry) }
        }
        if !walked.isEmpty {
            withExtendedLifetime(Core.shared.dependencies.invalidate(roots: walked)) {}
        }
        // The forgotten entries go last: their deinits forget their edges.
        withExtendedLifetime(forgotten) {}
    }

    func entries(ownedBy owner: AnyKeyPath) -> [Entry] {
        let owner = KeyOrType(key: owner)
        return lock.withLock {
            indexOwners()
            return byOwner[owner] ?? []
        }
    }

    /// Matched outside `lock`: the test may take other locks (see `OverrideRegistry`).
    func entries(where matches: (Entry) -> Bool) -> [Entry] {
        lock.withLock { Array(entries.values) }.filter(matches)
    }

    /// `forget`, dropping what they hold under the same lock (`Internal/README.md`, "Entry",
    /// idle → retired); release what it returns once no lock is held.
    func forgetEntries(among candidates: [Entry]? = nil, where matches: (Entry) -> Bool)
        -> (entries: [Entry], held: [Entry.Detached])
    {
        lock.withLock {
            let forgotten = forget(among: candidates, where: matches)
            return (forgotten, forgotten.map { $0.detach().cells })
        }
    }
}
