import CInjectableAtomics

/// One state of the override registry: what `push()` saves and `pop()` restores.
struct Overrides {
    var byKey: [AnyKeyPath: AnyOverride] = [:]
    var byType: [ObjectIdentifier: AnyOverride] = [:]

    var isEmpty: Bool { byKey.isEmpty && byType.isEmpty }

    var all: [AnyOverride] { Array(byKey.values) + Array(byType.values) }

    func differences(from other: Overrides) -> (keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>)
    {
        func changed<Key>(_ mine: [Key: AnyOverride], _ theirs: [Key: AnyOverride]) -> Set<Key> {
            Set(mine.keys).union(theirs.keys).filter { mine[$0] !== theirs[$0] }
        }
        return (changed(byKey, other.byKey), changed(byType, other.byType))
    }
}

/// The global override registry, or a task-local `withOverrides` layer with caches of its own.
@usableFromInline
final class OverrideRegistry: @unchecked Sendable {
    // @unchecked: mutable state is guarded by `lock` or atomic; the rest is immutable.
    /// First stored property, so its words sit at fixed offsets (`AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private var inlineWords: (empty: UInt, changes: UInt) = (1, 0)

    /// The registry `Injections.container`'s calls affect in this task.
    static var current: OverrideRegistry {
        guard MemoTable.hasDetours else { return Core.shared.overrides }
        return Layers.current ?? Core.shared.overrides
    }

    /// The registry a resolution here consults next; `nil` for the global registry.
    let beneath: OverrideRegistry?
    var isLayer: Bool { beneath != nil }
    /// The registry's identity for dependency edges: unlike its address, never reused.
    let serial: UInt64
    /// The serials of ``chain``, made once since each recorded dependency names them.
    let serials: [UInt64]
    private let lock = Lock(rank: .overrideRegistry)
    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var current = Overrides()
    /// Key overrides found by keypath object since the last change; keeps each object, so its
    /// identity is not reused. Emptied at `lookupLimit` (argument keypaths are new objects).
    @exclusivity(unchecked) private var lookups: [ObjectIdentifier: Lookup] = [:]
    private static let lookupLimit = 4096

    private struct Lookup {
        let keyPath: AnyKeyPath
        let override: AnyOverride?
    }

    @exclusivity(unchecked) private var saved: [Overrides] = []
    /// 1 while the registry has no overrides, else 0.
    private var emptyFlag: AtomicWord { AtomicWord(inline: 0, of: self) }
    /// How many changes of the overrides this registry has published (wrapping).
    private var changes: AtomicWord { AtomicWord(inline: 1, of: self) }

    var changeCount: UInt64 { UInt64(changes.loadSequentiallyConsistent()) }
    /// A layer's own scope caches, made on first use.
    private var storages: [ObjectIdentifier: ScopeStorage] = [:]
    /// Made on first use, and told every change of the overrides.
    private var ownTicket: LayerTicket?

    /// `overrides`: a gone layer's, for the layer a `LayerTicket` makes in its place.
    init(beneath: OverrideRegistry?, overrides: Overrides = Overrides()) {
        self.beneath = beneath
        self.serial = nextSerial(IK_REGISTRY_SERIALS)
        serials = [serial] + (beneath?.serials ?? [])
        current = overrides
        inlineWords.empty = overrides.isEmpty ? 1 : 0
        AtomicWord.checkInlineWords(&inlineWords, of: self)
        if isLayer { Self.liveLayers.add(self) }
    }

    var ticket: LayerTicket {
        assert(isLayer, "InjectableKit: only a layer has a ticket")
        return lock.withLock {
            if let ownTicket { return ownTicket }
            let ticket = LayerTicket(self, overrides: current)
            ownTicket = ticket
            return ticket
        }
    }

    /// Every layer alive, so that a change reaches the caches of the layers beneath it.
    private static let liveLayers = WeakList<OverrideRegistry>()

    /// The registries a resolution here consults, in order, this one first.
    var chain: [OverrideRegistry] { Array(sequence(first: self) { $0.beneath }) }

    func overrides(key: AnyKeyPath?, type: ObjectIdentifier?) -> Bool {
        guard !isEmpty else { return false }
        return lock.withLock {
            key.map { current.byKey[$0] != nil } ?? false
                || type.map { current.byType[$0] != nil } ?? false
        }
    }

    deinit {
        guard isLayer else { return }
        // A trace or recording started here and never stopped ends with the layer.
        Diagnostics.layerEnded(serial)
    }

    var isEmpty: Bool { emptyFlag.loadSequentiallyConsistent() != 0 }

    /// A key override anywhere on the chain wins over a type's; within a kind, the closest wins.
    /// Only overrides after `replaced` in that order apply (README, "Frame", edge rule 6).
    func override<Value>(
        for keyPath: KeyPath<Injections, Value>, after replaced: AnyOverride? = nil,
        servedBy: inout OverrideRegistry?, byKey: inout Bool
    ) -> Override<Value>? {
        // An app's resolutions outside tests and previews: no override anywhere.
        if beneath == nil && isEmpty { return nil }
        let type = ObjectIdentifier(Value.self)
        // Whether the keys' overrides met from now on come after `replaced` in the order.
        var pastKeys = replaced == nil
        var replacedType = false
        var firstType: (registry: OverrideRegistry, override: AnyOverride)?
        var typeAfterReplaced: (registry: OverrideRegistry, override: AnyOverride)?
        for here in sequence(first: self, next: { $0.beneath }) where !here.isEmpty {
            let (key, typed) = here.overrides(for: keyPath, type: type)
            if let key {
                if pastKeys {
                    (servedBy, byKey) = (here, true)
                    return unsafeDowncast(key, to: Override<Value>.self)
                }
                if key === replaced { pastKeys = true }
            }
            if let typed {
                if firstType == nil { firstType = (here, typed) }
                if replacedType, typeAfterReplaced == nil { typeAfterReplaced = (here, typed) }
                if typed === replaced { replacedType = true }
            }
        }
        guard let forType = pastKeys ? firstType : typeAfterReplaced else { return nil }
        (servedBy, byKey) = (forType.registry, false)
        // An `Override<Value>` by the `register` functions' types. NB: not `as?`, which looks
        // the generic class's metadata up on every call.
        return unsafeDowncast(forType.override, to: Override<Value>.self)
    }

    /// Read under one hold of the lock.
    private func overrides(
        for keyPath: AnyKeyPath, type: ObjectIdentifier
    ) -> (key: AnyOverride?, type: AnyOverride?) {
        var evicted: [ObjectIdentifier: Lookup] = [:]
        defer { withExtendedLifetime(evicted) {} }  // keypaths' arguments released outside the lock
        return lock.withLock {
            let forType = current.byType[type]
            // By object first: hashing a keypath walks its components, the lookup's main cost.
            let object = ObjectIdentifier(keyPath)
            if let known = lookups[object] { return (known.override, forType) }
            let found = current.byKey[keyPath]
            if lookups.count >= Self.lookupLimit { swap(&evicted, &lookups) }
            lookups[object] = Lookup(keyPath: keyPath, override: found)
            return (found, forType)
        }
    }

    /// Where `scope` keeps its instances for resolutions that use this registry.
    func storage(for scope: Injections.Scope) -> ScopeStorage {
        guard isLayer else { return scope.storage }
        return lock.withLock {
            if let storage = storages[ObjectIdentifier(scope)] { return storage }
            let storage = ScopeStorage()
            storages[ObjectIdentifier(scope)] = storage
            return storage
        }
    }

    /// The entries a change of `affected` reaches, here and in the layers beneath that consult
    /// this registry, and the caches it looked in.
    private func reachedEntries(
        _ affected: (keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>),
        removed: Set<ObjectIdentifier>, layers: [OverrideRegistry]
    ) -> (entries: [Entry], storages: [ScopeStorage]) {
        var reached: (entries: [Entry], storages: [ScopeStorage]) = ([], [])
        for registry in [self] + layers.filter({ $0 !== self }) {
            let chain = registry.chain
            guard let depth = chain.firstIndex(where: { $0 === self }) else { continue }
            let closer = chain[..<depth]
            // A closer key override hides a key's change; a closer type override hides no key's.
            let keys = affected.keys.filter { key in
                !closer.contains { $0.overrides(key: key, type: nil) }
            }
            let types = affected.types.filter { type in
                !closer.contains { $0.overrides(key: nil, type: type) }
            }
            guard !keys.isEmpty || !types.isEmpty else { continue }
            // This registry's own caches are read under its lock, which is held.
            let storages =
                registry !== self
                ? registry.lock.withLock { Array(registry.storages.values) }
                : isLayer ? Array(storages.values) : Injections.Scope.all.map(\.storage)
            reached.storages += storages
            for storage in storages {
                reached.entries += storage.entries { entry in
                    Self.isReached(
                        entry, keys: keys, types: types, closer: closer, removed: removed)
                }
            }
        }
        return reached
    }

    var typeOverrides: [AnyOverride] {
        lock.withLock { Array(current.byType.values) }
    }

    /// Makes every memo slot stale without changing any override.
    func invalidateMemos() {
        MemoTable.generation.wrappingAddAcquiringAndReleasing(1)
    }

    var isPushed: Bool { lock.withLock { !saved.isEmpty } }

    /// Saves the overrides; returns them with the levels saved before, for `restore`.
    func push(attempt: @autoclosure () -> String) -> Injections.SavedOverrides {
        lock.withLock {
            Sealing.refuseIfSealed(attempt())
            defer { saved.append(current) }
            return Injections.SavedOverrides(registry: self, overrides: current, below: saved)
        }
    }

    /// Every change that takes this registry's lock after this returns is refused.
    func seal() {
        lock.withLock { Sealing.sealed.storeReleasing(1) }
    }

    /// Puts back what the latest `push()` saved; given `level`, the state from before the
    /// `push()` that returned it, whatever was pushed or popped since.
    func pop(to level: Injections.SavedOverrides?, attempt: String) {
        change(attempt) { current in
            if let level {
                (current, saved) = (level.overrides, level.below)
            } else if let previous = saved.popLast() {
                current = previous
            }
        }
    }

    /// Applies `update` and drops what scopes cached for what it affected, before the new state
    /// is published, so no resolution pairs a new override with an old instance. What it lets
    /// go of is released after the lock: a deinit may use the container.
    func change(_ attempt: @autoclosure () -> String, _ update: (inout Overrides) -> Void) {
        // Taken outside the lock, and released after it: a layer's deinit releases its caches.
        let layers = Self.liveLayers.all
        ThreadState.current.changes += 1
        var released: [Any] = []
        lock.withLock {
            Sealing.refuseIfSealed(attempt())
            let before = current
            update(&current)
            // Published before the dependency search (README, edge rule 1).
            emptyFlag.storeSequentiallyConsistent(current.isEmpty ? 1 : 0)
            // Before the search too (README, edge rule 4).
            changes.wrappingAddSequentiallyConsistent(1)
            ownTicket?.update(current)
            let affected = current.differences(from: before)
            // No override changed (a key's reset where it has none): memos and lookups stand.
            guard !affected.keys.isEmpty || !affected.types.isEmpty else {
                released.append(before)
                return
            }
            let removed = Set(before.all.map(ObjectIdentifier.init)).subtracting(
                current.all.map(ObjectIdentifier.init))
            let (roots, storagesReached) = reachedEntries(
                affected, removed: removed, layers: layers)
            // And what was built from them or from this registry's state, in any scope.
            let invalidated = Core.shared.dependencies.invalidate(
                roots: roots, keys: affected.keys, types: affected.types, in: serial)
            released.append(invalidated)
            // A replaced override's entries, and dropped argument values' entries, serve
            // nothing more: forgotten (`ScopeStorage.mayForget`).
            let dropped = (roots + invalidated.entries).filter(ScopeStorage.mayForget)
            let droppedIDs = Set(dropped.map(ObjectIdentifier.init))
            for storage in storagesReached where !removed.isEmpty || !dropped.isEmpty {
                // Without a removed override, only the dropped entries can match.
                released.append(
                    storage.forgetEntries(among: removed.isEmpty ? dropped : nil) { entry in
                        droppedIDs.contains(ObjectIdentifier(entry))
                            || entry.key.override.map { removed.contains(ObjectIdentifier($0)) }
                                ?? false
                    })
            }
            // Slots and boxes describe the global registry only (README, key record rules 5, 7).
            if !isLayer {
                invalidateMemos()
                released.append(Core.shared.memo.forgetOverrides())
            }
            released.append(before)
            released.append(lookups)
            lookups = [:]
        }
        withExtendedLifetime(released) {}
    }

    /// Whether a change of `keys` and `types` reaches `entry`: made by a removed override, or
    /// for a changed key or declared type no `closer` registry overrides (README, edge rule 3).
    private static func isReached(
        _ entry: Entry, keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>,
        closer: ArraySlice<OverrideRegistry>, removed: Set<ObjectIdentifier>
    ) -> Bool {
        if let override = entry.key.override, removed.contains(ObjectIdentifier(override)) {
            return true
        }
        guard let owner = entry.owner else { return false }
        let declared = ObjectIdentifier(Swift.type(of: owner).valueType)
        let byKey = keys.contains(owner)
        guard byKey || types.contains(declared) else { return false }
        return !closer.contains { $0.overrides(key: owner, type: byKey ? nil : declared) }
    }
}
