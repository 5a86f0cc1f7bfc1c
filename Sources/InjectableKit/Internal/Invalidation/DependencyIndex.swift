/// Which cached instances were built from which keys, types and entries, so that dropping one
/// drops what was built from it. The rules: `Internal/README.md`, "Dependency edges".
final class DependencyIndex: @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.

    /// What one dependent entry was built from: the sources of its edges, for removing them.
    /// A key or type edge counts the resolutions of the build that need it, so that one whose
    /// override hides a registry takes back its own edge there, and no other's. Made by the
    /// dependent's first record since it last forgot its edges, kept by the entry
    /// (`Entry.edges`) and, once the log is folded, by `sources`; guarded by `lock`.
    final class Sources {
        // Made from a live entry by the thread building it: a fold touches no entry (whose
        // last release, there, would run its deinit under the lock).
        weak var entry: Entry?
        let serial: UInt64
        var sources: [KeyOrType: Int] = [:]
        var entries: Set<UInt64> = []
        /// Whether it is in `sources`.
        var isFiled = false

        init(entry: Entry?, serial: UInt64) {
            self.entry = entry
            self.serial = serial
        }
    }

    /// An edge recorded and not yet in the tables (see `log`).
    struct Logged {
        let dependent: Sources
        let edge: Edge
    }

    enum Edge {
        /// The key and type of a resolution, in the registries that can change it; `count` is 1
        /// to record the edges, -1 to take them back.
        case keys(
            AnyKeyPath, ObjectIdentifier, keyRegistries: [UInt64], typeRegistries: [UInt64],
            count: Int)
        /// The serial number of an entry read.
        case entry(UInt64)
    }

    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    let lock = Lock(rank: .dependencyIndex)
    @exclusivity(unchecked) var bySource: [KeyOrType: Set<UInt64>] = [:]
    @exclusivity(unchecked) var byEntry: [UInt64: Set<UInt64>] = [:]
    @exclusivity(unchecked) var sources: [UInt64: Sources] = [:]
    /// The edges recorded since the tables were last asked, in order: a build appends its
    /// edges here, and the next question (a drop, a change, an entry's forgetting) folds them
    /// into the tables first, so that builds nothing asks about (a process's first ones) hash
    /// nothing.
    @exclusivity(unchecked) var log = Backlog<Logged>()

    /// What the current hold of the lock lets go of (folded logs, forgotten records, the
    /// tables' keys), released once the lock is free (see `locked`).
    @exclusivity(unchecked) private var letGo: [Any] = []

    /// Records that `dependent`'s instance is being built from a resolution of `key`, whose
    /// value type is `type`, which the key overrides of `keyRegistries` and the type overrides
    /// of `typeRegistries` can change; with `count` -1, takes back what such a record added
    /// (for the registries an override found before them hides: their changes cannot affect
    /// this resolution).
    func record(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, keyRegistries: [UInt64],
        typeRegistries: [UInt64], count: Int = 1
    ) {
        append(
            .keys(
                key, type, keyRegistries: keyRegistries, typeRegistries: typeRegistries,
                count: count), for: dependent)
    }

    /// Records that `dependent`'s instance is being built from `entry`'s instance.
    @inline(never)  // as `append`
    func record(_ dependent: Entry, entry: Entry) {
        guard entry !== dependent else { return }
        append(.entry(entry.serial), for: dependent, source: entry)
    }

    /// Logs `edge`, once `dependent` (and `source`, the entry it reads, if any) is marked as
    /// having edges.
    // NB: not inlined into the resolution paths, which record only while a build runs.
    @inline(never)
    private func append(_ edge: Edge, for dependent: Entry, source: Entry? = nil) {
        locked {
            let record: Sources
            if let edges = dependent.edges {
                record = edges
            } else {
                record = Sources(entry: dependent, serial: dependent.serial)
                dependent.edges = record
                dependent.edgeFlags.setBitsRelaxed(Entry.dependsOnSomething)
            }
            source?.edgeFlags.setBitsRelaxed(Entry.isDependedOn)
            if log.note(Logged(dependent: record, edge: edge)) { fold() }
        }
    }

    /// Runs `body` with `lock` locked, then releases what it let go of (`letGo`): a keypath's
    /// last reference may be there (a logged edge's, a record's, a table's key, which is the
    /// first object of its value filed), whose arguments' deinits are the app's code.
    func locked<Result>(_ body: () -> Result) -> Result {
        var released: [Any] = []
        defer { withExtendedLifetime(released) {} }
        return lock.withLock {
            defer { swap(&released, &letGo) }
            return body()
        }
    }

    /// Moves the log's edges into the tables, in order. Call inside `locked`.
    func fold() {
        let taken = log.take()
        guard !taken.isEmpty else { return }
        letGo.append(taken)
        for logged in taken {
            let record = logged.dependent
            let serial = record.serial
            if !record.isFiled {
                sources[serial] = record
                record.isFiled = true
            }
            switch logged.edge {
            case .entry(let source):
                // Both sides of an edge are added and removed together (see `checkInvariants`).
                if record.entries.insert(source).inserted {
                    byEntry[source, default: []].insert(serial)
                }
            case .keys(let key, let type, let keyRegistries, let typeRegistries, let count):
                for registry in keyRegistries {
                    change(KeyOrType(registry: registry, key: key), by: count, of: record)
                }
                for registry in typeRegistries {
                    change(KeyOrType(registry: registry, type: type), by: count, of: record)
                }
            }
            checkInvariants(of: serial)
        }
    }

    /// Counts `count` more resolutions of `record`'s dependent that need the edge from
    /// `source`. Call inside `locked`.
    private func change(_ source: KeyOrType, by count: Int, of record: Sources) {
        func adding(_ count: Int, to value: inout Int) -> Int {
            value += count
            return value
        }
        let now = adding(count, to: &record.sources[source, default: 0])
        assert(now >= 0, "an edge taken back more often than recorded")
        if now <= 0 {
            record.sources[source] = nil
            remove(record.serial, from: source)
        } else if now == count {
            bySource[source, default: []].insert(record.serial)
        }
    }

    /// Forgets what `entry` was built from; `asSource` also forgets what was built from it (the
    /// entry is gone, so nothing can drop it any more). Free for an entry without edges.
    func forget(_ entry: Entry, asSource: Bool) {
        let mask = Entry.dependsOnSomething | (asSource ? Entry.isDependedOn : 0)
        // A flag set after this load belongs to a record made after the drop: it stays,
        // and at worst drops its entry once more than needed.
        guard entry.edgeFlags.loadAcquiring() & mask != 0 else { return }
        forgetEdges(of: entry, clearing: mask, asSource: asSource)
    }

    // NB: out of line: a build's start, which calls `forget`, seldom has edges to forget.
    @inline(never)
    private func forgetEdges(of entry: Entry, clearing mask: UInt, asSource: Bool) {
        locked {
            // The log may name the entry.
            fold()
            entry.edgeFlags.clearBitsRelaxed(mask)
            entry.edges = nil
            remove(entry.serial, asSource: asSource)
        }
    }

    /// Call inside `locked`.
    private func remove(_ serial: UInt64, asSource: Bool) {
        if asSource { byEntry[serial] = nil }
        guard let gone = sources.removeValue(forKey: serial) else { return }
        letGo.append(gone)
        for source in gone.sources.keys { remove(serial, from: source) }
        for entry in gone.entries {
            // In place: a copy of a set shared by many dependents would cost its size each time.
            byEntry[entry]?.remove(serial)
            if byEntry[entry]?.isEmpty == true { byEntry[entry] = nil }
        }
        sources.shrinkIfSparse()
        bySource.shrinkIfSparse()
        byEntry.shrinkIfSparse()
    }

    /// Removes the dependent numbered `serial` from `source`'s, and `source` once no dependent
    /// is left. Call inside `locked`.
    private func remove(_ serial: UInt64, from source: KeyOrType) {
        guard let index = bySource.index(forKey: source) else { return }
        bySource.values[index].remove(serial)
        if bySource.values[index].isEmpty { letGo.append(bySource.remove(at: index).key) }
    }

    /// Drops the instances of `roots`, of the entries built from `keys` or `types` as the
    /// override registry numbered `registry` decides them, and of everything built from those,
    /// at any depth.
    ///
    /// The walk's order and why it ends: `Internal/README.md`, edge rule 5.
    ///
    /// - Returns: What the dropped entries held, and the entries the walk loaded, for the caller
    ///   to release once it holds no lock (an entry's last reference may be the walk's, and
    ///   its deinit releases its key's override or arguments).
    func invalidate(
        roots: [Entry], keys: Set<AnyKeyPath> = [], types: Set<ObjectIdentifier> = [],
        in registry: UInt64 = 0
    ) -> (cells: [Entry.Detached], entries: [Entry]) {
        var released: [Entry.Detached] = []
        var loaded: [Entry] = []
        released.reserveCapacity(roots.count)
        // Only entries with edges are remembered or walked from: one without outgoing edges
        // is never met again as a dependent (a build that records one later is met and dropped
        // anew), and one without incoming edges has no dependents to ask for. So a reset of
        // entries nothing was built from allocates nothing more.
        var dropped: [UInt64: UInt64] = [:]  // serial: builds started when dropped
        var pending: [Entry] = []
        // Drops `entry`'s instance, and notes the builds started when it was dropped, if it
        // depends on something (it may be met again), and it as one to walk from, if something
        // depends on it.
        func drop(_ entry: Entry) {
            let (cells, starts) = entry.detachCountingBuilds()
            released.append(cells)
            let flags = entry.edgeFlags.loadAcquiring()
            if flags & Entry.dependsOnSomething != 0 { dropped[entry.serial] = starts }
            if flags & Entry.isDependedOn != 0 { pending.append(entry) }
        }
        let fromKeys =
            keys.isEmpty && types.isEmpty ? [] : built(fromKeys: keys, types: types, in: registry)
        for entry in roots { drop(entry) }
        for entry in fromKeys { drop(entry) }
        while let walked = pending.popLast() {
            // Asked only now that its instance is dropped (see above).
            let dependents = built(from: walked)
            loaded += dependents
            for dependent in dependents {
                if let starts = dropped[dependent.serial], dependent.startedBuilds == starts {
                    continue
                }
                drop(dependent)
            }
        }
        return (released, loaded + fromKeys)
    }

    /// The entries whose builds resolved `keys` or `types` in the registry numbered `registry`.
    private func built(
        fromKeys keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>, in registry: UInt64
    ) -> [Entry] {
        let changed =
            keys.map { KeyOrType(registry: registry, key: $0) }
            + types.map { KeyOrType(registry: registry, type: $0) }
        return locked {
            fold()
            var serials: Set<UInt64> = []
            for source in changed { serials.formUnion(bySource[source] ?? []) }
            return serials.compactMap { sources[$0]?.entry }
        }
    }

    /// The entries whose builds read `entry`'s instance.
    private func built(from entry: Entry) -> [Entry] {
        guard entry.edgeFlags.loadAcquiring() & Entry.isDependedOn != 0 else {
            return []
        }
        return locked {
            fold()
            return (byEntry[entry.serial] ?? []).compactMap { sources[$0]?.entry }
        }
    }
}
