import CInjectableAtomics

/// One state of the override registry: what `push()` saves and `pop()` restores.
struct Overrides {
    var byKey: [AnyKeyPath: AnyOverride] = [:]
    var byType: [ObjectIdentifier: AnyOverride] = [:]

    var isEmpty: Bool { byKey.isEmpty && byType.isEmpty }

    /// Every override, by key and by type.
    var all: [AnyOverride] { Array(byKey.values) + Array(byType.values) }

    /// The keys and types whose override differs between `self` and `other`.
    func differences(from other: Overrides) -> (keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>)
    {
        func changed<Key>(_ mine: [Key: AnyOverride], _ theirs: [Key: AnyOverride]) -> Set<Key> {
            Set(mine.keys).union(theirs.keys).filter { mine[$0] !== theirs[$0] }
        }
        return (changed(byKey, other.byKey), changed(byType, other.byType))
    }
}

/// The overrides that tests and previews register, checked before a keypath's own getter: the
/// global registry, or a task-local `withOverrides` layer with overrides and scope caches of its
/// own (`Internal/README.md`).
@usableFromInline
final class OverrideRegistry: @unchecked Sendable {
    // @unchecked: `current`, `saved`, `storages` and `ownTicket` are guarded by `lock`; the
    // atomics are atomics; `beneath`, `serial` and `serials` are immutable.
    /// `emptyFlag`'s and `changes`' words, first among the stored properties so that their
    /// addresses are fixed offsets in the object (see `AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private var inlineWords: (empty: UInt, changes: UInt) = (1, 0)

    /// The registry that `Injections.container`'s calls affect in this task: its innermost
    /// task-local layer, or the global registry.
    static var current: OverrideRegistry {
        guard MemoTable.hasDetours else { return Core.shared.overrides }
        return Layers.current ?? Core.shared.overrides
    }

    /// The registry a resolution here consults next: the enclosing layer, or the global
    /// registry beneath an outermost layer; `nil` for the global registry, the one that is no
    /// layer.
    let beneath: OverrideRegistry?
    var isLayer: Bool { beneath != nil }
    /// The registry's identity for dependency edges: unlike its address, never reused.
    let serial: UInt64
    /// The serial numbers of ``chain``, this registry's first: made once, since each recorded
    /// dependency names them.
    let serials: [UInt64]
    private let lock = Lock(rank: .overrideRegistry)
    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var current = Overrides()
    /// The override by key that ``override(for:servedBy:byKey:)`` found for each keypath object
    /// since the last change,
    /// keeping the object alive so that its identity is not reused. Emptied by every change,
    /// and when it reaches `lookupLimit` (keypaths with arguments are new objects each time).
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

    /// How many changes of the overrides this registry has published.
    var changeCount: UInt64 { UInt64(changes.loadSequentiallyConsistent()) }
    /// A layer's own scope caches, made on first use.
    private var storages: [ObjectIdentifier: ScopeStorage] = [:]
    /// Names this layer for the lazy wrappers made in it (see `LayerTicket`); made on first
    /// use, and told every change of the overrides.
    private var ownTicket: LayerTicket?

    /// - Parameters:
    ///   - beneath: The registry a resolution here consults next; `nil` for the global one.
    ///   - overrides: The overrides it starts with: a gone layer's, for the one a `LayerTicket`
    ///     makes in its place, with caches of its own.
    init(beneath: OverrideRegistry?, overrides: Overrides = Overrides()) {
        self.beneath = beneath
        self.serial = nextSerial(IK_REGISTRY_SERIALS)
        serials = [serial] + (beneath?.serials ?? [])
        current = overrides
        inlineWords.empty = overrides.isEmpty ? 1 : 0
        AtomicWord.checkInlineWords(&inlineWords, of: self)
        if isLayer { Self.liveLayers.add(self) }
    }

    /// This layer's ticket, for the lazy wrappers made in it.
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

    /// The registries a resolution here consults, in order: this one, its enclosing layers,
    /// and the global registry.
    var chain: [OverrideRegistry] { Array(sequence(first: self) { $0.beneath }) }

    /// Whether this registry overrides `key` itself or keys of `type`.
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

    /// The override for `keyPath`: one for the key, here or in any registry beneath, wins over
    /// one for its type; among overrides of one kind, the closest registry's wins.
    /// That order is what `replaced` follows; each registry is read under one hold of its lock
    /// (`Internal/README.md`, "Frame" and edge rule 6).
    ///
    /// - Parameters:
    ///   - keyPath: The key resolved.
    ///   - replaced: The override whose factory resolves the key, if any: only those after it
    ///     in the order apply (none, if a change has removed it).
    ///   - servedBy: Set to the registry whose override it is.
    ///   - byKey: Set to whether the override is the key's own.
    /// - Returns: The override, if any registry on the way has one.
    func override<Value>(
        for keyPath: KeyPath<Injections, Value>, after replaced: AnyOverride? = nil,
        servedBy: inout OverrideRegistry?, byKey: inout Bool
    ) -> Override<Value>? {
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
        // Registered for this key or for `Value`: an `Override<Value>`, by the `register`
        // functions' types. NB: not `as?`, which looks the generic class's metadata up on every
        // call.
        return unsafeDowncast(forType.override, to: Override<Value>.self)
    }

    /// This registry's own override for `keyPath`, and for `type`, read under one hold of the
    /// lock.
    private func overrides(
        for keyPath: AnyKeyPath, type: ObjectIdentifier
    ) -> (key: AnyOverride?, type: AnyOverride?) {
        var evicted: [ObjectIdentifier: Lookup] = [:]
        defer { withExtendedLifetime(evicted) {} }  // keypaths' arguments released outside the lock
        return lock.withLock {
            let forType = current.byType[type]
            // Found by the keypath object first: hashing a keypath's value walks its
            // components, several times the cost of the rest of this lookup.
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

    /// The entries a change of the overrides of `affected` reaches (`isReached`), and the caches
    /// it looked in: this registry's, and those of the layers beneath it that consult it, each
    /// with the keys and types the change reaches there (a layer's own override, or one between
    /// it and this registry, hides this one's).
    private func reachedEntries(
        _ affected: (keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>),
        removed: Set<ObjectIdentifier>, layers: [OverrideRegistry]
    ) -> (entries: [Entry], storages: [ScopeStorage]) {
        var reached: (entries: [Entry], storages: [ScopeStorage]) = ([], [])
        for registry in [self] + layers.filter({ $0 !== self }) {
            let chain = registry.chain
            guard let depth = chain.firstIndex(where: { $0 === self }) else { continue }
            let closer = chain[..<depth]
            // A closer override for the key hides a change of the key's; one for its type
            // does not, since the key's own override wins wherever it is.
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

    /// The types this registry overrides, with their overrides.
    var typeOverrides: [AnyOverride] {
        lock.withLock { Array(current.byType.values) }
    }

    /// Makes every memo slot stale without changing any override. The generation is one of the
    /// memo table's statics, which the fast path reads anyway.
    func invalidateMemos() {
        MemoTable.generation.wrappingAddAcquiringAndReleasing(1)
    }

    /// Whether a `push()` is waiting for its `pop()`.
    var isPushed: Bool { lock.withLock { !saved.isEmpty } }

    /// Saves the overrides; returns them with the levels saved before, for `restore`.
    func push(attempt: @autoclosure () -> String) -> Injections.SavedOverrides {
        lock.withLock {
            Sealing.refuseIfSealed(attempt())
            defer { saved.append(current) }
            return Injections.SavedOverrides(registry: self, overrides: current, below: saved)
        }
    }

    /// Seals the container: every change that takes this registry's lock after this returns
    /// is refused.
    func seal() {
        lock.withLock { Sealing.sealed.storeReleasing(1) }
    }

    /// Puts back the overrides the latest `push()` saved; given `level`, the overrides and the
    /// saved levels as they were before the `push()` that returned it, whatever was pushed or
    /// popped since.
    func pop(to level: Injections.SavedOverrides?, attempt: String) {
        change(attempt) { current in
            if let level {
                (current, saved) = (level.overrides, level.below)
            } else if let previous = saved.popLast() {
                current = previous
            }
        }
    }

    /// Applies `update`, and drops what scopes cached for every key and type it affected, so
    /// that the next resolution sees the new state.
    ///
    /// The instances are dropped before the new state is published (the generation bump and
    /// the lock's release), so that no resolution pairs a new override with an instance an
    /// old one built. What the change lets go of (old overrides, their captures, the dropped
    /// instances) is released after the lock, since a deinit may use the container.
    ///
    /// - Parameters:
    ///   - attempt: What the change is, for the message if the container is sealed: checked
    ///     under the lock, which ``seal()`` takes, so no change lands after `seal()` has
    ///     returned.
    ///   - update: Changes the overrides.
    func change(_ attempt: @autoclosure () -> String, _ update: (inout Overrides) -> Void) {
        // Taken outside the lock, and released after it: a layer's deinit releases its caches.
        let layers = Self.liveLayers.all
        ThreadState.current.changes += 1
        var released: [Any] = []
        lock.withLock {
            Sealing.refuseIfSealed(attempt())
            let before = current
            update(&current)
            // Published before the dependency search: a build that asked for an affected key
            // either recorded its edge before the search (and is found), or looks the key up
            // after this store (and sees the change). See `DependencyIndex`.
            emptyFlag.storeSequentiallyConsistent(current.isEmpty ? 1 : 0)
            // Before the search: a build that read the old state either sees the count move,
            // or recorded its edges before this search (see `PendingReads`).
            changes.wrappingAddSequentiallyConsistent(1)
            ownTicket?.update(current)
            let affected = current.differences(from: before)
            // A change that changes no override (a key's reset where it has none) leaves what
            // every call site remembered, and the registry's lookups, as they are.
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
            // An override's own entries serve nothing once it is replaced, nor does an
            // argument value's once dropped: forgotten, so that a key that served many
            // argument values holds nothing for them after its change (see
            // `ScopeStorage.mayForget`).
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
            // Memo slots describe the global registry; a layer's resolutions never use them.
            // Boxes are emptied after the generation moved, and before a resolution can look
            // the new overrides up (under this lock), so a box never serves a replaced one.
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

    /// Whether a change of the overrides of `keys` and `types` reaches `entry`'s instance.
    ///
    /// It does if the entry was made by an override the change removed, or for a key the
    /// change overrides (the key itself, or its declared type: a type override serves only keys
    /// declared with exactly its type, whatever type the helper built), unless a registry
    /// closer to the entry's overrides that key (`closer`), and the change is not of the key's
    /// own override, which wins over a closer one for its type.
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
