/// Which cached instances were built from which keys, types and entries, so that dropping one
/// drops what was built from it (`Internal/README.md`, "Dependency edges").
final class DependencyIndex: @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.

    /// One dependent's record of sources (edge rules 2 and 3), kept by `Entry.edges` and, once
    /// folded, by `sources`; guarded by `lock`.
    final class Sources {
        // Weak: a fold never releases an entry (edge rule 2).
        weak var entry: Entry?
        let serial: UInt64
        var sources: [KeyOrType: Int] = [:]
        var entries: Set<UInt64> = []
        var isFiled = false

        init(entry: Entry?, serial: UInt64) {
            self.entry = entry
            self.serial = serial
        }
    }

    struct Logged {
        let dependent: Sources
        let edge: Edge
    }

    enum Edge {
        /// `count` 1 records the edges, -1 takes them back (edge rule 3).
        case keys(
            AnyKeyPath, ObjectIdentifier, keyRegistries: [UInt64], typeRegistries: [UInt64],
            count: Int)
        case entry(UInt64)
    }

    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    let lock = Lock(rank: .dependencyIndex)
    @exclusivity(unchecked) var bySource: [KeyOrType: Set<UInt64>] = [:]
    @exclusivity(unchecked) var byEntry: [UInt64: Set<UInt64>] = [:]
    @exclusivity(unchecked) var sources: [UInt64: Sources] = [:]
    /// Edges not folded into the tables yet (edge rule 2).
    @exclusivity(unchecked) var log = Backlog<Logged>()

    /// What the current hold of the lock lets go of, released after it (see `locked`).
    @exclusivity(unchecked) private var letGo: [Any] = []

    /// `dependent` is being built from `key` (of type `type`), as the registries can change it;
    /// `count` -1 takes back what such a record added (edge rule 3).
    func record(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, keyRegistries: [UInt64],
        typeRegistries: [UInt64], count: Int = 1
    ) {
        append(
            .keys(
                key, type, keyRegistries: keyRegistries, typeRegistries: typeRegistries,
                count: count), for: dependent)
    }

    @inline(never)  // as `append`
    func record(_ dependent: Entry, entry: Entry) {
        guard entry !== dependent else { return }
        append(.entry(entry.serial), for: dependent, source: entry)
    }

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

    /// `lock.withLock`, then releases `letGo`: a keypath's last reference may be there, and its
    /// arguments' deinits are the app's code.
    func locked<Result>(_ body: () -> Result) -> Result {
        var released: [Any] = []
        defer { withExtendedLifetime(released) {} }
        return lock.withLock {
            defer { swap(&released, &letGo) }
            return body()
        }
    }

    /// Files the log, in order. Call inside `locked`.
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

    /// Call inside `locked`.
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

    /// Call inside `locked`.
    private func remove(_ serial: UInt64, from source: KeyOrType) {
        guard let index = bySource.index(forKey: source) else { return }
        bySource.values[index].remove(serial)
        if bySource.values[index].isEmpty { letGo.append(bySource.remove(at: index).key) }
    }

    /// Drops `roots`, the entries built from `keys` or `types` in `registry`, and all built from
    /// those (edge rule 5). Release what it returns once no lock is held: an entry's last
    /// reference may be the walk's.
    func invalidate(
        roots: [Entry], keys: Set<AnyKeyPath> = [], types: Set<ObjectIdentifier> = [],
        in registry: UInt64 = 0
    ) -> (cells: [Entry.Detached], entries: [Entry]) {
        var released: [Entry.Detached] = []
        var loaded: [Entry] = []
        released.reserveCapacity(roots.count)
        // Only entries with edges are remembered or walked from, so a reset of entries nothing
        // was built from allocates nothing more.
        var dropped: [UInt64: UInt64] = [:]  // serial: builds started when dropped
        var pending: [Entry] = []
        func drop(_ entry: Entry) {
            let (cells, starts) = entry.detach()
            released.append(cells)
            let flags = entry.edgeFlags.loadAcquiring()
            if flags & Entry.dependsOnSomething != 0 { dropped[entry.serial] = starts }
            if flags & Entry.isDependedOn != 0 { pending.append(entry) }
        }
        let changed =
            keys.map { KeyOrType(registry: registry, key: $0) }
            + types.map { KeyOrType(registry: registry, type: $0) }
        let fromKeys =
            changed.isEmpty
            ? [] : dependents { changed.reduce(into: []) { $0.formUnion(bySource[$1] ?? []) } }
        for entry in roots { drop(entry) }
        for entry in fromKeys { drop(entry) }
        while let walked = pending.popLast() {
            // Asked only after the drop: edge rule 5.
            let found = dependents { byEntry[walked.serial] ?? [] }
            loaded += found
            for dependent in found {
                if let starts = dropped[dependent.serial], dependent.startedBuilds == starts {
                    continue
                }
                drop(dependent)
            }
        }
        return (released, loaded + fromKeys)
    }

    /// The live dependents whose serials `serials` reads from the tables, once the log is filed.
    private func dependents(_ serials: () -> Set<UInt64>) -> [Entry] {
        locked {
            fold()
            return serials().compactMap { sources[$0]?.entry }
        }
    }
}
