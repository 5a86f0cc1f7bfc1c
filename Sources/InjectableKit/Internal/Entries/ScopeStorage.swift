import Foundation

/// The instances one scope holds, one entry per registration (and per argument value).
final class ScopeStorage: @unchecked Sendable {
    // @unchecked: `entries` and `argumentEntries` are guarded by `lock`.
    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart, so the run-time check
    // (a thread-local access set lookup on every access) would only add cost.
    private let lock = Lock()
    @exclusivity(unchecked) private var entries: [EntryKey: Entry] = [:]
    /// How many of `entries` are for argument values (see `reset`).
    @exclusivity(unchecked) private var argumentEntries = 0

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
            let entry = make()
            entries[key] = entry
            if key.argument != nil {
                argumentEntries += 1
                if argumentEntries >= pruneAt {
                    forgotten = retireArgumentEntries { $0.isIdleAndEmpty(keeping: &loaded) }
                    pruneAt = max(Self.minimumPruneAt, argumentEntries * 2)
                }
            }
            return entry
        }
    }

    /// How many entries the scope keeps (for tests of its memory bound).
    var entryCount: Int { lock.withLock { entries.count } }

    /// Retires and forgets the argument entries that `matches` and no thread is building.
    /// Call with `lock` locked.
    ///
    /// - Returns: The entries forgotten, for the caller to release once it holds no lock.
    private func retireArgumentEntries(where matches: (Entry) -> Bool) -> [Entry] {
        var forgotten: [Entry] = []
        BuildCoordinator.condition.lock()
        for (key, entry) in entries where key.argument != nil {
            if matches(entry) && entry.retireIfIdle() {
                entries[key] = nil
                forgotten.append(entry)
            }
        }
        BuildCoordinator.condition.unlock()
        argumentEntries -= forgotten.count
        entries.shrinkIfSparse()
        return forgotten
    }

    /// Drops every instance, and the instances built from them in any scope. Entries made for
    /// argument values are forgotten, so that a scope used with many arguments does not grow
    /// without bound; one that a thread is building stays, cleared, and its builder builds
    /// again (see `Entry.obtain`).
    func reset() {
        ThreadState.current.changes += 1
        let (all, forgotten) = lock.withLock {
            let all = Array(entries.values)
            let forgotten = argumentEntries > 0 ? retireArgumentEntries { _ in true } : []
            return (all, forgotten)
        }
        // Cleared outside `lock`: an instance's deinit may resolve through this scope.
        for entry in all {
            entry.clear()
        }
        for dependent in DependencyIndex.shared.dependents(entries: all) {
            dependent.clear()
        }
        withExtendedLifetime(forgotten) {}  // their deinits forget their edges, after the clears
    }

    /// Drops the instances of the entries that match, handing them back for the caller to
    /// release once it holds no lock.
    ///
    /// - Returns: The entries, and what they held.
    func detach(where matches: (Entry) -> Bool) -> [(Entry, Entry.Detached)] {
        // Matched outside `lock`: the test may take other locks (see `OverrideRegistry`).
        let matching = lock.withLock { Array(entries.values) }.filter(matches)
        return matching.map { ($0, $0.detach()) }
    }
}
