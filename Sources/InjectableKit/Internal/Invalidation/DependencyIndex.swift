/// Which cached instances were built from which keys, types and entries, so that dropping one
/// drops what was built from it. The rules: `Internal/README.md`, "Dependency edges".
final class DependencyIndex: @unchecked Sendable {
    // @unchecked: every dictionary is guarded by `lock`.

    /// What one dependent entry was built from: the sources of its edges, for removing them.
    struct Sources {
        weak var entry: Entry?
        var sources: Set<KeyOrType> = []
        var entries: Set<UInt64> = []
    }

    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    let lock = Lock(rank: .dependencyIndex)
    @exclusivity(unchecked) var bySource: [KeyOrType: Set<UInt64>] = [:]
    @exclusivity(unchecked) var byEntry: [UInt64: Set<UInt64>] = [:]
    @exclusivity(unchecked) var sources: [UInt64: Sources] = [:]

    /// How many dependents the index may hold before it next looks for freed ones.
    @exclusivity(unchecked) private var sweepAt = 1024

    /// Records that `dependent`'s instance is being built from a resolution of `key`, whose
    /// value type is `type`, which the key overrides of `keyRegistries` and the type overrides
    /// of `typeRegistries` can change.
    ///
    /// - Returns: Which registries (bit `i` for the `i`th of `keyRegistries`, and of
    ///   `typeRegistries`, up to 64) this call added a key edge, and a type edge, for (the others
    ///   were there already), for ``unrecord(_:key:type:keyRegistries:typeRegistries:)``. A
    ///   registry past the 64th is never marked, so its edge is never taken back: at worst a
    ///   change drops more.
    @discardableResult
    func record(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, keyRegistries: [UInt64],
        typeRegistries: [UInt64]
    ) -> (keys: UInt64, types: UInt64) {
        withSources(of: dependent) { record in
            // NB: bits, not arrays of the registries: an array would be allocated for each edge.
            var added: (keys: UInt64, types: UInt64) = (0, 0)
            func add(_ source: KeyOrType, at index: Int, to bits: inout UInt64) {
                // Both sides of an edge are added and removed together (see `checkInvariants`).
                guard record.sources.insert(source).inserted else { return }
                if index < 64 { bits |= 1 << index }
                bySource[source, default: []].insert(dependent.serial)
            }
            for (index, registry) in keyRegistries.enumerated() {
                add(KeyOrType(registry: registry, key: key), at: index, to: &added.keys)
            }
            for (index, registry) in typeRegistries.enumerated() {
                add(KeyOrType(registry: registry, type: type), at: index, to: &added.types)
            }
            return added
        }
    }

    /// Runs `body` with `lock` locked on `dependent`'s record of sources (made after sweeping
    /// the index if a sweep is due, see `sweepIfDue`), once `dependent` is marked as depending on
    /// something; checks its edges after. What the sweep loaded is released outside the lock.
    private func withSources<Result>(
        of dependent: Entry, _ body: (inout Sources) -> Result
    ) -> Result {
        var swept: [Entry] = []
        defer { withExtendedLifetime(swept) {} }  // released outside the lock
        return lock.withLock {
            let serial = dependent.serial
            // NB: the record is found once and changed in place: each look-up hashes the serial.
            var index = sources.index(forKey: serial)
            if index == nil {
                swept = sweepIfDue()
                sources[serial] = Sources(entry: dependent)
                index = sources.index(forKey: serial)
            }
            dependent.edgeFlags.setBitsRelaxed(Entry.dependsOnSomething)
            defer { checkInvariants(of: serial) }
            return body(&sources.values[index.unsafelyUnwrapped])
        }
    }

    /// Takes back edges that ``record(_:key:type:keyRegistries:typeRegistries:)`` added, for
    /// the registries an override found before them hides: their changes cannot affect this
    /// resolution. Only edges that call added: the same type may stand for another key the
    /// build resolved.
    func unrecord(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, keyRegistries: [UInt64],
        typeRegistries: [UInt64]
    ) {
        lock.withLock {
            let serial = dependent.serial
            // NB: one source at a time, not an array of them: this runs on a resolution's path.
            func take(_ source: KeyOrType) {
                sources[serial]?.sources.remove(source)
                Self.remove(serial, at: source, in: &bySource)
            }
            for registry in keyRegistries { take(KeyOrType(registry: registry, key: key)) }
            for registry in typeRegistries { take(KeyOrType(registry: registry, type: type)) }
        }
    }

    /// Records that `dependent`'s instance is being built from `entry`'s instance.
    func record(_ dependent: Entry, entry: Entry) {
        guard entry !== dependent else { return }
        withSources(of: dependent) { record in
            entry.edgeFlags.setBitsRelaxed(Entry.isDependedOn)
            guard record.entries.insert(entry.serial).inserted else { return }
            byEntry[entry.serial, default: []].insert(dependent.serial)
        }
    }

    /// Forgets what `entry` was built from; `asSource` also forgets what was built from it (the
    /// entry is gone, so nothing can drop it any more). Free for an entry without edges.
    func forget(_ entry: Entry, asSource: Bool) {
        let mask = Entry.dependsOnSomething | (asSource ? Entry.isDependedOn : 0)
        // A flag set after this load belongs to a record made after the drop: it stays,
        // and at worst drops its entry once more than needed.
        guard entry.edgeFlags.loadAcquiring() & mask != 0 else { return }
        lock.withLock {
            entry.edgeFlags.clearBitsRelaxed(mask)
            remove(entry.serial, asSource: asSource)
        }
    }

    /// Call with `lock` locked.
    private func remove(_ serial: UInt64, asSource: Bool) {
        if asSource { byEntry[serial] = nil }
        guard let gone = sources.removeValue(forKey: serial) else { return }
        for source in gone.sources { Self.remove(serial, at: source, in: &bySource) }
        for entry in gone.entries { Self.remove(serial, at: entry, in: &byEntry) }
        sources.shrinkIfSparse()
        bySource.shrinkIfSparse()
        byEntry.shrinkIfSparse()
    }

    /// Forgets the dependents that no longer exist (a layer's entries, gone with the layer; an
    /// argument entry its scope forgot), once their number has doubled since the last sweep.
    /// Call with `lock` locked.
    ///
    /// Entries forget themselves in `deinit`; this catches any that did not (a flag not yet
    /// visible to the deinit's thread).
    ///
    /// - Returns: The entries it loaded, for the caller to release once it holds no lock (a weak
    ///   load can leave the last reference here).
    private func sweepIfDue() -> [Entry] {
        guard sources.count >= sweepAt else { return [] }
        var alive: [Entry] = []
        var gone: [UInt64] = []
        for (serial, source) in sources {
            if let entry = source.entry { alive.append(entry) } else { gone.append(serial) }
        }
        for serial in gone { remove(serial, asSource: true) }
        sweepAt = max(1024, sources.count * 2)
        return alive
    }

    private static func remove<Key: Hashable>(
        _ serial: UInt64, at key: Key, in index: inout [Key: Set<UInt64>]
    ) {
        // In place: a copy of a set shared by many dependents would cost its size each time.
        index[key]?.remove(serial)
        if index[key]?.isEmpty == true { index[key] = nil }
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
        return lock.withLock {
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
        return lock.withLock {
            (byEntry[entry.serial] ?? []).compactMap { sources[$0]?.entry }
        }
    }
}
