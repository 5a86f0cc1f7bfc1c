/// The instances one scope holds, one entry per registration (and per argument value).
final class ScopeStorage: @unchecked Sendable {
    // @unchecked: `entries` and `argumentEntries` are guarded by `lock`.
    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart, so the run-time check
    // (a thread-local access set lookup on every access) would only add cost.
    private let lock = Lock()
    @exclusivity(unchecked) private var entries: [EntryKey: Entry] = [:]
    /// How many of `entries` are for argument values (see `reset`).
    @exclusivity(unchecked) private var argumentEntries = 0

    /// The entry for `key`, made by `make` on first use.
    func entry(for key: EntryKey, make: () -> Entry) -> Entry {
        lock.withLock {
            if let entry = entries[key] { return entry }
            let entry = make()
            entries[key] = entry
            if key.argument != nil { argumentEntries += 1 }
            return entry
        }
    }

    /// Drops every instance, and the instances built from them in any scope. Entries made for
    /// argument values are forgotten, so that a scope used with many arguments does not grow
    /// without bound.
    func reset() {
        let all = lock.withLock {
            let all = Array(entries.values)
            if argumentEntries > 0 {
                entries = entries.filter { $0.key.argument == nil }
                argumentEntries = 0
            }
            return all
        }
        // Cleared outside `lock`: an instance's deinit may resolve through this scope.
        for entry in all {
            entry.clear(retire: entry.key.argument != nil)
        }
        for dependent in DependencyIndex.shared.dependents(entries: all) {
            dependent.clear()
        }
    }

    /// Drops the instances of the entries that match, handing them back for the caller to
    /// release once it holds no lock.
    ///
    /// - Returns: The entries, and what they held.
    func detach(where matches: (Entry) -> Bool) -> [(Entry, Entry.Detached)] {
        let matching = lock.withLock { entries.values.filter(matches) }
        return matching.map { ($0, $0.detach()) }
    }
}
