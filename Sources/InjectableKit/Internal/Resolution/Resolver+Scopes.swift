/// Scope helpers: the instance a scope holds for a registration, built once.
extension Resolver {
    /// A scope helper: the instance `scope` holds for the registration at `site`.
    static func scoped<Value>(
        _ scope: Injections.Scope, _ make: () -> Value, site: Site, token: UInt64,
        timeToLive: TimeToLive?
    ) -> Value {
        let thread = ThreadState.current
        if let index = thread.frameIndex(token: token), thread.frames[index].name == nil {
            thread.frames[index].name = site.function
        }
        // The innermost resolution's frame; none when that resolution is a plain getter's.
        let ownerIndex = thread.frames.indices.last.flatMap {
            thread.frames[$0].depth == thread.depth ? $0 : nil
        }
        let owner = ownerIndex.map { thread.frames[$0].keyPath }
        var argument: AnyKeyPath? = nil
        if site.isSubscript {
            // The arguments are in the keypath being resolved, if this subscript is what is
            // being resolved: its frame's type is the helper's, or one the helper's converts to
            // (an existential or an optional: `-> any AccountProviding { cached(Live(...)) }`).
            // A subscript used directly (`self[account: 1]` in a registration of another type)
            // has nothing to key by, and builds.
            guard let ownerIndex, let owner,
                mayHold(thread.frames[ownerIndex].valueType, Value.self)
            else { return make() }
            argument = owner
        }
        // An instance belongs to its registration: an override is one, for every key it serves;
        // a helper outside a property's getter may be called for any number of keys, each its
        // own registration (see `EntryKey`).
        let override = ownerIndex.flatMap { thread.frames[$0].override }
        let registration: EntryKey.Registration =
            if let argument {
                .argument(argument)
            } else if site.isInPropertyGetter {
                // A property's getter is that registration, whoever reads it: an alias
                // (`var service: any P { live }`) or an override's closure shares its instance.
                .site
            } else if let override {
                .override(override)
            } else if let owner, !site.isInFunctionWithoutParameters {
                .owner(owner)
            } else {
                .site
            }
        let key = EntryKey(
            site: site, type: ObjectIdentifier(Value.self), registration: registration)
        // The resolution this one's value flows into, if its getter runs outside its helpers:
        // this entry is one of its dependencies.
        let enclosing = (ownerIndex ?? thread.frames.count) - 1
        if let ownerIndex {
            if thread.frames[ownerIndex].helperCount > 0,
                thread.frames[ownerIndex].helpersRunning == 0
            {
                Failure.helpersInSequence(thread.frames[ownerIndex], site: site)
            }
            thread.frames[ownerIndex].helperCount += 1
            thread.frames[ownerIndex].scope = scope
        }
        /// Runs a helper's factory, counted on the frame (see `Frame.helpersRunning`).
        func run() -> Value {
            guard let ownerIndex else { return make() }
            thread.frames[ownerIndex].helpersRunning += 1
            defer { thread.frames[ownerIndex].helpersRunning -= 1 }
            return make()
        }

        if scope.kind == .graph {
            guard thread.depth > 0 else { return make() }
            if let cell = thread.graph[key] { return cell.value(as: Value.self) }
            if let ownerIndex { thread.frames[ownerIndex].built = true }
            let value = run()
            if !isNil(value) { thread.graph[key] = makeCell(value) }
            return value
        }

        // The frame knows its layer: no need to read the task-local value.
        let storage =
            if let ownerIndex {
                thread.frames[ownerIndex].layer?.storage(for: scope) ?? scope.storage
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
                    key: key, owner: owner, holdsWeakly: scope.kind == .shared,
                    timeToLive: timeToLive ?? scope.expiration)
            }
            if let ownerIndex { thread.frames[ownerIndex].helperEntry = entry }
            // Recorded before the entry is read, for the same reason as a key's edge.
            if let building = thread.buildStack.last {
                DependencyIndex.shared.record(building, entry: entry)
            }
            if enclosing >= 0, thread.frames[enclosing].isOutsideHelpers {
                // Noted before the entry is read, in every frame its value may flow into.
                let epoch = entry.currentEpoch
                var index = enclosing
                while index >= 0, thread.frames[index].isOutsideHelpers {
                    thread.frames[index].pendingReads.entries.append((entry, epoch))
                    index -= 1
                }
            }
            let obtained = entry.obtain(
                {
                    if let ownerIndex { thread.frames[ownerIndex].built = true }
                    // While it builds, nested resolutions take frames, so that they record
                    // what this entry is built from (see `DependencyIndex`).
                    thread.buildStack.append(entry)
                    MemoTable.beginDetour()
                    defer {
                        MemoTable.endDetour()
                        thread.buildStack.removeLast()
                    }
                    if let ownerIndex { recordPending(of: ownerIndex, as: entry, on: thread) }
                    return run()
                },
                keepIf: {
                    // What the getter read before its helper may have changed since: then the
                    // build, reusing it, cannot tell, and its instance is not kept.
                    guard let ownerIndex, let pending = thread.frames[ownerIndex].pending else {
                        return true
                    }
                    return pending.isCurrent
                }, on: thread, into: slot)
            if obtained { return slot.move() }
            // The entry was retired (its scope reset) before this thread could build: its
            // scope has, or makes, the one that replaces it.
        }
    }

    /// Records what the frame at `index` resolved before its helper as dependencies of
    /// `entry`, which its helper builds.
    private static func recordPending(of index: Int, as entry: Entry, on thread: ThreadState) {
        guard let pending = thread.frames[index].pending else { return }
        for key in pending.keys {
            DependencyIndex.shared.record(
                entry, key: key.key, type: key.type, keyRegistries: key.keyRegistries,
                typeRegistries: key.typeRegistries)
        }
        for read in pending.entries {
            DependencyIndex.shared.record(entry, entry: read.entry)
        }
    }
}
