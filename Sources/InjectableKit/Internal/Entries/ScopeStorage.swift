import Foundation

/// The instances one scope holds, one entry per registration (and per argument value).
final class ScopeStorage: @unchecked Sendable {
    // @unchecked: every stored property but `lock` is guarded by `lock`.
    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart, so the run-time check
    // (a thread-local access set lookup on every access) would only add cost.
    let lock = Lock(rank: .scopeStorage)
    @exclusivity(unchecked) var entries: [EntryKey: Entry] = [:]
    /// How many of `entries` are for argument values or overrides: kept only while in use.
    @exclusivity(unchecked) var forgettableEntries = 0
    /// The entries by the key whose resolution made them, so that one key's (one argument
    /// value's) reset or query costs the same however many argument values the scope holds.
    @exclusivity(unchecked) var byOwner: [KeyOrType: [Entry]] = [:]
    /// Entries filed since `byOwner` was last asked, which it does not hold yet: a question (a
    /// key's reset or query, a forgetting) takes them in first (`indexOwners`), so that a key's
    /// first resolution, which nothing asks about, hashes no keypath here.
    @exclusivity(unchecked) var unindexed = Backlog<Entry>()

    /// How many argument entries the scope may hold before it next forgets the idle, empty
    /// ones (see `entry(for:make:)`).
    @exclusivity(unchecked) private var pruneAt = ScopeStorage.minimumPruneAt
    static let minimumPruneAt = 256

    /// The entry for `key`, made by `make` on first use.
    ///
    /// Entries for argument values whose weak instance is gone are forgotten once their number
    /// has doubled since the last look: a `shared` subscript resolved with many arguments keeps
    /// entries for the instances still alive, not for every argument it has seen.
    func entry(for key: EntryKey, make: () -> Entry) -> Entry {
        var forgotten: [Entry] = []
        var loaded: [AnyObject] = []
        defer { withExtendedLifetime((forgotten, loaded)) {} }  // released outside the lock
        return lock.withLock {
            if let entry = entries[key] { return entry }
            // Pruned before the new entry is filed, which is idle and empty too.
            if key.isForgettable && forgettableEntries + 1 >= pruneAt {
                forgotten = forget {
                    Self.mayForget($0) && $0.isIdleAndEmpty(keeping: &loaded)
                }
                pruneAt = max(Self.minimumPruneAt, (forgettableEntries + 1) * 2)
            }
            let entry = make()
            entries[key] = entry
            if entry.owner != nil, unindexed.note(entry) { indexOwners() }
            if key.isForgettable { forgettableEntries += 1 }
            checkInvariants()
            return entry
        }
    }

    /// Whether a scope may forget `entry` once it holds nothing (a reset, a change that dropped
    /// it, or a prune of idle entries): an entry for an argument value, an override, or an owner
    /// key that the memo does not name, of which there may be any number. An entry the memo
    /// names stays, emptied: the memo keeps it for good and its call sites read it, so a
    /// replacement would leave them on the framed path.
    static func mayForget(_ entry: Entry) -> Bool {
        switch entry.key.registration {
        case .argument, .override: true
        case .owner: !Core.shared.memo.names(entry)
        case .site: false
        }
    }

    /// Files the entries of `unindexed` in `byOwner`. Call with `lock` locked. (Every one is in
    /// `entries` still, which keeps it: only `forget`, which calls this first, removes one.)
    private func indexOwners() {
        for entry in unindexed.take() {
            byOwner[KeyOrType(key: entry.owner.unsafelyUnwrapped), default: []].append(entry)
        }
    }

    /// Retires and forgets the entries that `matches` (among `candidates`, if given) and no
    /// thread is building. Call with `lock` locked.
    ///
    /// - Returns: The entries forgotten, for the caller to release once it holds no lock.
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

    /// Drops every instance, and the instances built from them in any scope. Entries made for
    /// argument values or by overrides are forgotten, so that a scope used with many of them
    /// does not grow without bound; one that a thread is building stays, cleared, and its
    /// builder builds again (see `Entry.obtain`).
    func reset() {
        ThreadState.current.changes += 1
        let (all, forgotten) = lock.withLock {
            let all = Array(entries.values)
            let forgotten =
                forgettableEntries > 0 ? forget(where: Self.mayForget) : []
            return (all, forgotten)
        }
        drop(all, forgetting: forgotten)
    }

    /// Drops the instances of the entries `owner`'s resolutions made, and the instances built
    /// from them in any scope, as ``reset()`` does for every entry, forgetting those it may
    /// (``mayForget(_:)``) unless a thread is building them.
    func reset(ownedBy owner: AnyKeyPath) {
        let matched = entries(ownedBy: owner)
        guard !matched.isEmpty else { return }
        ThreadState.current.changes += 1
        let identities = Set(matched.map(ObjectIdentifier.init))
        let forgotten = lock.withLock {
            forget(among: matched) {
                Self.mayForget($0) && identities.contains(ObjectIdentifier($0))
            }
        }
        drop(matched, forgetting: forgotten)
    }

    /// The entries `owner`'s resolutions made.
    func entries(ownedBy owner: AnyKeyPath) -> [Entry] {
        let owner = KeyOrType(key: owner)
        return lock.withLock {
            indexOwners()
            return byOwner[owner] ?? []
        }
    }

    /// Drops the instances of `entries`, and what was built from them, after the lock: an
    /// instance's deinit may resolve through this scope. Every entry is dropped first and its
    /// edges looked at after, so that a build that read it before the drop is found (see
    /// `DependencyIndex.invalidate`). The `forgotten` entries go last: their deinits forget
    /// their edges.
    private func drop(_ entries: [Entry], forgetting forgotten: [Entry]) {
        var walked: [Entry] = []
        for entry in entries {
            entry.clear()
            if entry.mayHaveEdges { walked.append(entry) }
        }
        if !walked.isEmpty {
            let released = Core.shared.dependencies.invalidate(roots: walked)
            withExtendedLifetime(released) {}  // instances released outside every lock
        }
        withExtendedLifetime(forgotten) {}
    }

    /// The entries that match. Matched outside `lock`: the test may take other locks (see
    /// `OverrideRegistry`).
    func entries(where matches: (Entry) -> Bool) -> [Entry] {
        lock.withLock { Array(entries.values) }.filter(matches)
    }

    /// Retires and forgets the entries that match (among `candidates`, if given) and no thread
    /// is building, and drops what they hold: entries that a change of the overrides dropped,
    /// or made for an override it replaced, which nothing resolves any more. (A thread may have
    /// built in one between the change's drop and this: retired, it must not keep that.)
    ///
    /// - Returns: The entries forgotten and what they held, for the caller to release once it
    ///   holds no lock.
    func forgetEntries(among candidates: [Entry]? = nil, where matches: (Entry) -> Bool)
        -> (entries: [Entry], held: [Entry.Detached])
    {
        lock.withLock {
            let forgotten = forget(among: candidates, where: matches)
            return (forgotten, forgotten.map { $0.detachCountingBuilds().cells })
        }
    }
}
