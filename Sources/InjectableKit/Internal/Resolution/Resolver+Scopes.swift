/// Scope helpers: the instance a scope holds for a registration, built once.
extension Resolver {
    /// The instance `scope` holds for the registration at `site`, decorated once as built.
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
        return ThreadState.unmanagedCurrent._withUnsafeGuaranteedRef {
            scoped(
                scope, make, site: site, token: token, timeToLive: timeToLive, decorate: decorate,
                on: $0)
        }
    }

    /// On the thread's state, borrowed: its key keeps it alive.
    private static func scoped<Value>(
        _ scope: Injections.Scope, _ make: () -> Value, site: Site, token: UInt64,
        timeToLive: TimeToLive?, decorate: (@Sendable (inout Value) -> Void)?,
        on thread: ThreadState
    ) -> Value {
        let frame = thread.frame(for: token)
        frame?.learnName(site.function)
        // The token of a frame an override serves: the instance is that override's.
        let served = frame?.override
        let owner = thread.innermostResolution
        // Not decorated again if `owner`'s override resolved its own key (decorated as built).
        func build(for owner: FrameHandle?) -> Value {
            var value = make()
            if let decorate, owner?.resolvedReplacedValue != true { decorate(&value) }
            return value
        }
        // NB: no `owner?.runHelper(make) ?? make()`: `Value?` would look its metadata up here.
        func run(builds: Bool = false) -> Value {
            guard let owner else { return build(for: nil) }
            return owner.runHelper(builds: builds) { build(for: owner) }
        }
        var argument: AnyKeyPath? = nil
        if site.isSubscript {
            // The arguments are the resolved keypath's if its type is the helper's or one it
            // converts to (`-> any P { cached(Live()) }`); used directly, it builds.
            guard let owner, mayHold(owner.valueType, Value.self) else { return build(for: nil) }
            argument = owner.keyPath
        }
        // An instance belongs to its registration (`Internal/README.md`, "Objects", Entry).
        let registration: EntryKey.Registration =
            if let served {
                .override(served, argument)
            } else if let argument {
                .argument(argument)
            } else if site.isInPropertyGetter {
                // One registration, whoever reads it: an alias or an override's closure.
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
            let value = run(builds: true)
            if !isNil(value) { thread.graph[key] = makeCell(value) }
            return value
        }

        // The frame knows its layer: no need to read the task-local value. Borrowed: the scope
        // holds its own storage, a layer (which its binding holds) its storages for good.
        let storage = Unmanaged.passUnretained(
            owner.map { $0.layer?.storage(for: scope) ?? scope.storage }
                ?? OverrideRegistry.current.storage(for: scope))
        // NB: a slot, not `Value?`, whose metadata would be looked up here on every call.
        let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { slot.deallocate() }
        while true {
            let entry = storage._withUnsafeGuaranteedRef {
                $0.entry(for: key) {
                    Entry(
                        key: key, owner: owner?.keyPath, holdsWeakly: scope.kind == .shared,
                        timeToLive: timeToLive ?? scope.expiration)
                }
            }
            owner?.helperFound(entry)
            // Recorded before the entry is read, for the same reason as a key's edge.
            if let building = thread.buildStack.last {
                Core.shared.dependencies.record(building, entry: entry)
            }
            // Noted before the read, in the frames enclosing the helper's own.
            thread.noteEntryRead(entry, fromFrameAt: (owner?.index ?? thread.frames.count) - 1)
            let obtained = entry.obtain(
                {
                    // Nested resolutions take frames, to record what this is built from.
                    thread.buildStack.append(entry)
                    MemoTable.beginDetour()
                    defer {
                        MemoTable.endDetour()
                        thread.buildStack.removeLast()
                    }
                    if let pending = owner?.pending { recordPending(pending, as: entry) }
                    return run(builds: true)
                },
                keepIf: {
                    // What the getter read before its helper may have changed: then not kept.
                    owner?.pending?.isCurrent ?? true
                }, on: thread, into: slot)
            if obtained { return slot.move() }
            // Retired before this thread could build: the scope has, or makes, its successor.
        }
    }

    /// Records what the getter resolved before its helper as `entry`'s dependencies.
    private static func recordPending(_ pending: PendingReads.View, as entry: Entry) {
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
