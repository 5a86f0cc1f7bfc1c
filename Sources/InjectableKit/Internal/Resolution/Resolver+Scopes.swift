/// Scope helpers: the instance a scope holds for a registration, built once.
extension Resolver {
    /// A scope helper: the instance `scope` holds for the registration at `site`, decorated by
    /// `decorate` once as it is built.
    static func scoped<Value>(
        _ scope: Injections.Scope, _ make: () -> Value, site: Site, token: UInt64,
        timeToLive: TimeToLive?, decorate: (@Sendable (inout Value) -> Void)?
    ) -> Value {
        if token == OverrideLifetimes.probeToken {
            OverrideLifetimes.reached(
                Placement(
                    scope: scope, site: site, timeToLive: timeToLive,
                    decoration: decorate.map(Decoration.init)))
        }
        let thread = ThreadState.current
        let frame = thread.frame(for: token)
        frame?.learnName(site.function)
        // Called with the token of a frame an override serves: that override, built where the
        // key's helper keeps its instance (see `serve`), as its own registration.
        let served = frame?.override
        let owner = thread.innermostResolution
        /// Runs a helper's factory, counted on the owner's frame, and decorates what it built,
        /// unless an override's factory built it on the value it replaces, decorated already
        /// (`FrameHandle.resolvedReplacedValue`).
        // NB: no `owner?.runHelper(make) ?? make()`: in this unspecialised code, `Value?` would
        // look `Optional<Value>`'s metadata up.
        func run() -> Value {
            guard let owner else {
                var value = make()
                decorate?(&value)
                return value
            }
            return owner.runHelper {
                var value = make()
                if let decorate, !owner.resolvedReplacedValue { decorate(&value) }
                return value
            }
        }
        var argument: AnyKeyPath? = nil
        if site.isSubscript {
            // The arguments are in the keypath being resolved, if this subscript is what is
            // being resolved: its frame's type is the helper's, or one the helper's converts to
            // (an existential or an optional: `-> any AccountProviding { cached(Live(...)) }`).
            // A subscript used directly (`self[account: 1]` in a registration of another type)
            // has nothing to key by, and builds.
            guard let owner, mayHold(owner.valueType, Value.self) else {
                var value = make()
                decorate?(&value)
                return value
            }
            argument = owner.keyPath
        }
        // An instance belongs to its registration: an override is one, for every key it serves;
        // a helper outside a property's getter may be called for any number of keys, each its
        // own registration (see `EntryKey`).
        let registration: EntryKey.Registration =
            if let served {
                .override(served, argument)
            } else if let argument {
                .argument(argument)
            } else if site.isInPropertyGetter {
                // A property's getter is that registration, whoever reads it: an alias
                // (`var service: any P { live }`) or an override's closure shares its instance.
                .site
            } else if let override = owner?.override {
                .override(override, nil)
            } else if let owner, !site.isInFunctionWithoutParameters {
                .owner(owner.keyPath)
            } else {
                .site
            }
        let key = EntryKey(
            site: site, type: ObjectIdentifier(Value.self), registration: registration)
        owner?.helperCalled(in: scope, at: site)

        if scope.kind == .unique { return run() }
        if scope.kind == .graph {
            guard thread.depth > 0 else { return run() }
            if let cell = thread.graph[key] { return cell.value(as: Value.self) }
            owner?.helperBuilds()
            let value = run()
            if !isNil(value) { thread.graph[key] = makeCell(value) }
            return value
        }

        // The frame knows its layer: no need to read the task-local value.
        let storage =
            if let owner {
                owner.layer?.storage(for: scope) ?? scope.storage
            } else {
                OverrideRegistry.current.storage(for: scope)
            }
        // NB: a slot rather than `Value?`, which in this unspecialised code would look
        // `Optional<Value>`'s metadata up on every call.
        let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { slot.deallocate() }
        while true {
            let entry = storage.entry(for: key) {
                Entry(
                    key: key, owner: owner?.keyPath, holdsWeakly: scope.kind == .shared,
                    timeToLive: timeToLive ?? scope.expiration)
            }
            owner?.helperFound(entry)
            // Recorded before the entry is read, for the same reason as a key's edge.
            if let building = thread.buildStack.last {
                Core.shared.dependencies.record(building, entry: entry)
            }
            // Noted before the entry is read, in every frame its value may flow into: those
            // enclosing the helper's own.
            thread.noteEntryRead(entry, fromFrameAt: (owner?.index ?? thread.frames.count) - 1)
            let obtained = entry.obtain(
                {
                    owner?.helperBuilds()
                    // While it builds, nested resolutions take frames, so that they record
                    // what this entry is built from (see `DependencyIndex`).
                    thread.buildStack.append(entry)
                    MemoTable.beginDetour()
                    defer {
                        MemoTable.endDetour()
                        thread.buildStack.removeLast()
                    }
                    if let pending = owner?.pending { recordPending(pending, as: entry) }
                    return run()
                },
                keepIf: {
                    // What the getter read before its helper may have changed since: then the
                    // build, reusing it, cannot tell, and its instance is not kept.
                    owner?.pending?.isCurrent ?? true
                }, on: thread, into: slot)
            if obtained { return slot.move() }
            // The entry was retired (its scope reset) before this thread could build: its
            // scope has, or makes, the one that replaces it.
        }
    }

    /// Records what a getter resolved before its helper as dependencies of `entry`, which its
    /// helper builds.
    private static func recordPending(_ pending: PendingReads, as entry: Entry) {
        for key in pending.keys {
            Core.shared.dependencies.record(
                entry, key: key.key, type: key.type, keyRegistries: key.keyRegistries,
                typeRegistries: key.typeRegistries)
        }
        for read in pending.entries {
            Core.shared.dependencies.record(entry, entry: read.entry)
        }
    }
}
