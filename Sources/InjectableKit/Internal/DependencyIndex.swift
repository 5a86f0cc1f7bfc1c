import Synchronization

/// Which cached instances were built from which keys, types and entries, so that dropping one
/// drops what was built from it: a cached `parent` built with `leaf` is rebuilt once `leaf` is
/// overridden, or its scope reset, instead of keeping the stale child.
///
/// An edge is recorded when a build first asks for a dependency, before the dependency is
/// looked up (see `Internal/README.md`): a change that the lookup does not see finds the edge,
/// and clears the building entry, whose builder then builds again. Every resolution nested in a
/// build takes the framed path (the memo's common path steps aside while any build is in
/// progress). Outside builds this costs nothing; a build pays a lock and a hash per dependency.
///
/// Entries are named by their serial numbers, never by address: an entry can be freed and its
/// address reused. An entry's edges go when its instance is dropped (it records them again when
/// rebuilt) and when the entry itself goes.
final class DependencyIndex: @unchecked Sendable {
    // @unchecked: every dictionary is guarded by `lock`.
    static let shared = DependencyIndex()

    /// What one dependent entry was built from: the keys of its edges, for removing them.
    private struct Sources {
        weak var entry: Entry?
        var keys: Set<InRegistry<AnyKeyPath>> = []
        var types: Set<InRegistry<ObjectIdentifier>> = []
        var entries: Set<UInt64> = []
    }

    /// A key or a type as one override registry (by serial number) decides it: a change of
    /// overrides reaches only the instances built from the registry that changed.
    private struct InRegistry<Key: Hashable>: Hashable {
        let registry: UInt64
        let key: Key
    }

    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    private let lock = Lock()
    @exclusivity(unchecked) private var byKey: [InRegistry<AnyKeyPath>: Set<UInt64>] = [:]
    @exclusivity(unchecked) private var byType: [InRegistry<ObjectIdentifier>: Set<UInt64>] = [:]
    @exclusivity(unchecked) private var byEntry: [UInt64: Set<UInt64>] = [:]
    @exclusivity(unchecked) private var sources: [UInt64: Sources] = [:]

    /// How many edges the index keeps (for tests of its bound).
    var edgeCount: Int {
        lock.withLock {
            sources.values.reduce(0) { $0 + $1.keys.count + $1.types.count + $1.entries.count }
        }
    }

    /// How many dependents the index may hold before it next looks for freed ones.
    @exclusivity(unchecked) private var sweepAt = 1024

    /// Records that `dependent`'s instance is being built from a resolution of `key`, whose
    /// value type is `type`, as the override registries numbered `registries` decide it.
    func record(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, registries: [UInt64]
    ) {
        lock.withLock {
            let serial = dependent.serial
            if sources[serial] == nil { sweepIfDue() }
            dependent.edgeFlags.bitwiseOr(Entry.dependsOnSomething, ordering: .relaxed)
            for registry in registries {
                let key = InRegistry(registry: registry, key: key)
                let type = InRegistry(registry: registry, key: type)
                sources[serial, default: Sources(entry: dependent)].keys.insert(key)
                sources[serial]!.types.insert(type)
                byKey[key, default: []].insert(serial)
                byType[type, default: []].insert(serial)
            }
        }
    }

    /// Takes back edges ``record(_:key:type:registries:)`` made for `registries`: an override
    /// found in a registry before them hides them, so their changes cannot affect the build.
    func unrecord(
        _ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, registries: [UInt64]
    ) {
        lock.withLock {
            let serial = dependent.serial
            for registry in registries {
                let key = InRegistry(registry: registry, key: key)
                let type = InRegistry(registry: registry, key: type)
                sources[serial]?.keys.remove(key)
                sources[serial]?.types.remove(type)
                Self.remove(serial, at: key, in: &byKey)
                Self.remove(serial, at: type, in: &byType)
            }
        }
    }

    /// Records that `dependent`'s instance is being built from `entry`'s instance.
    func record(_ dependent: Entry, entry: Entry) {
        guard entry !== dependent else { return }
        lock.withLock {
            if sources[dependent.serial] == nil { sweepIfDue() }
            dependent.edgeFlags.bitwiseOr(Entry.dependsOnSomething, ordering: .relaxed)
            entry.edgeFlags.bitwiseOr(Entry.isDependedOn, ordering: .relaxed)
            sources[dependent.serial, default: Sources(entry: dependent)].entries.insert(
                entry.serial)
            byEntry[entry.serial, default: []].insert(dependent.serial)
        }
    }

    /// Forgets what `entry` was built from; `asSource` also forgets what was built from it (the
    /// entry is gone, so nothing can drop it any more). Free for an entry without edges.
    func forget(_ entry: Entry, asSource: Bool) {
        let mask = Entry.dependsOnSomething | (asSource ? Entry.isDependedOn : 0)
        // A flag set after this load belongs to a record made after the drop: it stays,
        // and at worst drops its entry once more than needed.
        guard entry.edgeFlags.load(ordering: .acquiring) & mask != 0 else { return }
        lock.withLock {
            entry.edgeFlags.bitwiseAnd(~mask, ordering: .relaxed)
            remove(entry.serial, asSource: asSource)
        }
    }

    /// Call with `lock` locked.
    private func remove(_ serial: UInt64, asSource: Bool) {
        if asSource { byEntry[serial] = nil }
        guard let gone = sources.removeValue(forKey: serial) else { return }
        for key in gone.keys { Self.remove(serial, at: key, in: &byKey) }
        for type in gone.types { Self.remove(serial, at: type, in: &byType) }
        for entry in gone.entries { Self.remove(serial, at: entry, in: &byEntry) }
        Self.shrinkIfSparse(&sources)
        Self.shrinkIfSparse(&byKey)
        Self.shrinkIfSparse(&byEntry)
    }

    /// Forgets the dependents that no longer exist (a layer's entries, gone with the layer; an
    /// argument entry its scope forgot), once their number has doubled since the last sweep.
    /// Call with `lock` locked.
    ///
    /// NB: entries do not forget themselves in `deinit`: an entry's last release can happen
    /// while this lock is held (a weak reference loaded here), and the lock is not recursive.
    private func sweepIfDue() {
        guard sources.count >= sweepAt else { return }
        let gone = sources.compactMap { $0.value.entry == nil ? $0.key : nil }
        for serial in gone { remove(serial, asSource: true) }
        sweepAt = max(1024, sources.count * 2)
    }

    private static func remove<Key: Hashable>(
        _ serial: UInt64, at key: Key, in index: inout [Key: Set<UInt64>]
    ) {
        // In place: a copy of a set shared by many dependents would cost its size each time.
        index[key]?.remove(serial)
        if index[key]?.isEmpty == true { index[key] = nil }
    }

    /// A dictionary keeps its capacity when emptied: give it back once most of it is unused.
    private static func shrinkIfSparse<Key, Value>(_ dictionary: inout [Key: Value]) {
        if dictionary.capacity > 1024 && dictionary.count * 8 < dictionary.capacity {
            dictionary = Dictionary(uniqueKeysWithValues: dictionary.map { ($0.key, $0.value) })
        }
    }

    /// Every entry built, directly or through others, from `entries`, or from `keys` or `types`
    /// as the override registry numbered `registry` decides them.
    func dependents(
        ofKeys keys: Set<AnyKeyPath> = [], types: Set<ObjectIdentifier> = [],
        in registry: UInt64 = 0,
        entries: [Entry]
    ) -> [Entry] {
        let keys = keys.map { InRegistry(registry: registry, key: $0) }
        let types = types.map { InRegistry(registry: registry, key: $0) }
        return lock.withLock {
            // The common case, nothing was built from what is dropped, allocates nothing.
            guard
                keys.contains(where: { byKey[$0] != nil })
                    || types.contains(where: { byType[$0] != nil })
                    || entries.contains(where: { byEntry[$0.serial] != nil })
            else { return [] }
            var found: [UInt64: Entry] = [:]
            var pending: [UInt64] = entries.map(\.serial)
            func add(_ dependents: Set<UInt64>?) {
                for serial in dependents ?? [] where found[serial] == nil {
                    guard let entry = sources[serial]?.entry else { continue }
                    found[serial] = entry
                    pending.append(serial)
                }
            }
            for key in keys { add(byKey[key]) }
            for type in types { add(byType[type]) }
            while let serial = pending.popLast() {
                add(byEntry[serial])
            }
            return Array(found.values)
        }
    }
}
