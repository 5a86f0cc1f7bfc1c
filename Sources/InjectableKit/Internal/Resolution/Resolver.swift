import Synchronization

/// The resolution algorithm: overrides first, then the keypath's own getter, with a memo table
/// that reads an already cached instance without applying the keypath, taking a lock or hashing
/// the keypath.
@usableFromInline
enum Resolver {
    /// How deep resolutions may nest before they are taken for an unbounded cycle.
    static let depthLimit = 512
    /// How deep plain getters resolve without frames (see `enterUnframed`).
    static let framelessDepth = 64
    /// From this depth on, cycle detection also compares keypaths by value (not only by object).
    static let deepCheckDepth = 32

    /// What the memo table knows about a keypath at the current override generation.
    @usableFromInline
    enum Lookup {
        /// Nothing current: check the overrides, then apply the keypath.
        case unknown
        /// No override applies; the keypath's getter builds a new instance every time.
        case getter
        /// As `getter`, and the getter calls no scope helper.
        case plainGetter
        /// No override applies; the entry holds the keypath's instance, when it holds one: as
        /// its own type, or if `view` as its view's type.
        case entry(Unmanaged<Entry>, view: Bool)
        /// A global override serves the key, and the box holds it unless a change has emptied
        /// the box since.
        case override(Unmanaged<OverrideBox>)
        /// The task runs inside `Injections.withOverrides`: the memo, which describes the
        /// global registry and caches, does not apply.
        case layered
        /// The trace or graph recording is on: resolve with frames, and remember nothing.
        case observed
    }

    /// The common path's first step: neither locks, retains nor hashes the keypath.
    ///
    /// Slots are made only by resolutions that ran the ``AutoRegistering`` hook first, and
    /// re-arming the hook makes every slot stale, so the hook needs no check here.
    @usableFromInline
    static func lookup(_ keyPath: AnyKeyPath) -> (Lookup, generation: UInt64) {
        let generation = MemoTable.generation.load(ordering: .acquiring)
        if MemoTable.hasDetours, let detour = detour() { return (detour, generation) }
        switch MemoTable.entryWord(for: keyPath, at: generation) {
        case MemoTable.noSlot: return (.unknown, generation)
        case 0: return (.getter, generation)
        case MemoTable.plainGetter: return (.plainGetter, generation)
        case let word where word & MemoTable.overrideFlag != 0:
            let address = word & ~MemoTable.overrideFlag
            let box = Unmanaged<OverrideBox>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            return (.override(box), generation)
        case let word:
            let address = word & ~MemoTable.viewFlag
            let entry = Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            return (.entry(entry, view: word & MemoTable.viewFlag != 0), generation)
        }
    }

    /// Why this resolution cannot take the memo's common path, if it cannot: a task-local
    /// layer, or the trace, the graph recording or a build to observe. Out of line, so that
    /// ``lookup(_:)`` stays a leaf function.
    @inline(never)
    private static func detour() -> Lookup? {
        if Layers.current != nil { return .layered }
        if Diagnostics.active { return .observed }
        let thread = ThreadState.current
        // A resolution nested in a frame or a build: what it resolves is recorded.
        if !thread.frames.isEmpty || !thread.buildStack.isEmpty { return .observed }
        return nil
    }

    /// Resolves `keyPath`. Inlined into the caller, where `Value` is known, so that reading a
    /// cached instance needs no generic metadata and no dynamic cast.
    ///
    /// NB: the inlined code is the same at every call site but for two constants (the keypath
    /// literal and the closure that applies the keypath), so that the compiler can merge all
    /// call sites of one shape into one function and leave a few bytes of each behind: with
    /// many registrations, each call site's code of its own is a likely instruction-cache miss
    /// per cache line. Four differing constants stop the merge: hence the caller's name only
    /// when there is a frame to name (`token` is 0 for `container`), the getter applied out of
    /// line, through `apply`, even for a plain getter, and no use of `Value`'s metadata (see
    /// `Entry.value(as:view:)`).
    @inlinable @inline(__always)
    static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, token: UInt64, caller: StaticString?
    ) -> Value {
        let (lookup, generation) = lookup(keyPath)
        if case .entry(let entry, let view) = lookup {
            let value = entry._withUnsafeGuaranteedRef { $0.value(as: Value.self, view: view) }
            if _fastPath(value != nil) { return value.unsafelyUnwrapped }
        }
        // The closure is specialised for the keypath literal: it calls the getter directly.
        return resolveRarely(
            keyPath, lookup: lookup, generation: generation, token: token,
            caller: token == 0 ? nil : caller
        ) { Injections(token: $0)[keyPath: keyPath] }
    }

    /// Resolves what the inlined path does not: a plain getter (without a frame, while not
    /// nested too deep), and through ``resolveInFrame`` everything else.
    @usableFromInline
    static func resolveRarely<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Lookup, generation: UInt64, token: UInt64,
        caller: StaticString?, apply: (_ token: UInt64) -> Value
    ) -> Value {
        if case .plainGetter = lookup, let thread = enterUnframed() {
            let value = apply(0)
            exitUnframed(thread)
            return value
        }
        return resolveInFrame(
            keyPath, lookup: lookup, generation: generation, token: token, caller: caller,
            apply: apply)
    }

    /// Resolves `keyPath` in a frame: a first resolution (checking the overrides, then
    /// remembering what it learned), a resolution in a task-local layer or while observed, an
    /// entry that holds no instance yet, a getter that calls helpers but cannot be served from
    /// an entry, and a plain getter nested too deep to go without a frame. Out of line, so that
    /// a plain getter's path stays short.
    @inline(never)
    private static func resolveInFrame<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Lookup, generation: UInt64, token: UInt64,
        caller: StaticString?, apply: (_ token: UInt64) -> Value
    ) -> Value {
        var lookup = lookup
        if case .override(let box) = lookup {
            // Registered for this key or its type: an `Override<Value>` (see
            // `OverrideRegistry.override(for:servedBy:byKey:)`).
            if let override = box._withUnsafeGuaranteedRef(\.current) {
                return resolve(
                    keyPath, with: unsafeDowncast(override, to: Override<Value>.self),
                    in: nil, token: token, caller: caller)
            }
            lookup = .unknown  // a change emptied the box: look again
        }
        // Overrides are checked unless the memo said none applies.
        let registry: OverrideRegistry? =
            switch lookup {
            case .layered: Layers.current
            case .unknown, .observed: OverrideRegistry.shared
            case .entry, .plainGetter, .getter, .override: nil
            }
        if let registry {
            AutoRegistration.ensure()
            if let override = overrideRecordingDependency(keyPath, in: registry) {
                // A global override is remembered, so that the key's call sites find it
                // without the registry's lock or a hash of the keypath.
                if case .unknown = lookup, override.servedBy === OverrideRegistry.shared {
                    MemoTable.shared.remember(
                        keyPath, .override(override.override), generation: generation)
                }
                return resolve(
                    keyPath, with: override.override, in: registry.isLayer ? registry : nil,
                    token: token, caller: caller)
            }
        }
        let thread = ThreadState.current
        let frameToken = enter(
            keyPath, of: Value.self, in: registry?.isLayer == true ? registry : nil, token: token,
            caller: caller, on: thread)
        let value = apply(frameToken)
        let frame = exit(on: thread)
        // Learned where a key resolves in a frame only now and then (a first resolution, or in
        // a layer), not on the paths that take a frame every time.
        switch lookup {
        case .unknown, .layered, .observed:
            if let name = frame.name { KeyNames.learn(frame.keyPath, name) }
        case .entry, .plainGetter, .getter, .override:
            break
        }
        if case .layered = lookup, let verification = thread.verification {
            verification.built(frame, holdsObject: classInstance(value) != nil)
        }
        if case .unknown = lookup {
            remember(keyPath, value: value, frame: frame, generation: generation)
        }
        return value
    }

    /// The override for `keyPath` in `registry` and those beneath it, if any, having recorded
    /// the key as a dependency of what is being built from it: of the build in progress, and,
    /// when the enclosing resolution's getter runs outside its helpers, of that resolution's
    /// helper entry, once it builds (`Frame.pendingKeys`).
    ///
    /// A build records what it asks for, in every registry it consults, before looking it up: a
    /// change the lookup misses then finds the edge, and has the build run again (see
    /// `DependencyIndex`). Registries beneath the one whose override served the key cannot change
    /// this resolution with an override of the same kind, and a key's own override hides every
    /// override for its type: those edges are taken back.
    private static func overrideRecordingDependency<Value>(
        _ keyPath: KeyPath<Injections, Value>, in registry: OverrideRegistry
    ) -> (override: Override<Value>, servedBy: OverrideRegistry)? {
        let type = ObjectIdentifier(Value.self)
        let thread = MemoTable.hasDetours ? ThreadState.current : nil
        let building = thread?.buildStack.last
        let enclosing = thread.flatMap { thread in
            thread.frames.indices.last.flatMap { thread.frames[$0].isOutsideHelpers ? $0 : nil }
        }
        let chain =
            building != nil || enclosing != nil ? registry.chain.map(\.serial) : [UInt64]()
        var added: (keys: [UInt64], types: [UInt64]) = ([], [])
        if let building {
            added = DependencyIndex.shared.record(
                building, key: keyPath, type: type, registries: chain)
        }
        // NB: no `Value?` here: in this unspecialised code it would need `Optional<Value>`'s
        // metadata, made at each type's first resolution.
        // Made before the lookup, so that the count it notes precedes everything read.
        let pending = thread.flatMap { thread in enclosing.map { thread.frames[$0].pendingReads } }
        var servedBy: OverrideRegistry?
        var byKey = false
        let found = registry.override(for: keyPath, servedBy: &servedBy, byKey: &byKey)
        var keyRegistries = chain
        var typeRegistries = chain
        if found != nil, let servedBy, let index = chain.firstIndex(of: servedBy.serial) {
            let hidden = chain[(index + 1)...]
            if byKey { keyRegistries = Array(chain[...index]) }
            typeRegistries = byKey ? [] : Array(chain[...index])
            if let building {
                DependencyIndex.shared.unrecord(
                    building, key: keyPath, type: type,
                    keyRegistries: byKey ? added.keys.filter(hidden.contains) : [],
                    typeRegistries: byKey ? added.types : added.types.filter(hidden.contains))
            }
        }
        pending?.keys.append(
            PendingKey(
                key: keyPath, type: type, keyRegistries: keyRegistries,
                typeRegistries: typeRegistries))
        guard let found, let servedBy else { return nil }
        return (found, servedBy)
    }

    /// Resolves `keyPath` with `override`, its override, in a frame, for a resolution in
    /// `layer` (`nil`: outside any layer).
    private static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, with override: Override<Value>,
        in layer: OverrideRegistry?, token: UInt64, caller: StaticString?
    ) -> Value {
        let thread = ThreadState.current
        _ = enter(
            keyPath, of: Value.self, in: layer, token: token, caller: caller, on: thread,
            override: override)
        override.markServed()
        let value = override.make()
        leave(on: thread)
        return value
    }

    /// Starts resolving a plain getter whose memo record is current: no override applies, and
    /// it calls no scope helper, so it needs no frame, only the depth count that keeps the graph
    /// scope and cycle detection right.
    ///
    /// - Returns: The thread's state, to hand to ``exitUnframed(_:)``; `nil` past
    ///   `framelessDepth`, where resolutions take frames again so that a cycle through plain
    ///   getters is still caught and named.
    @usableFromInline
    static func enterUnframed() -> ThreadState? {
        let thread = ThreadState.current
        guard thread.depth < framelessDepth else { return nil }
        thread.depth += 1
        return thread
    }

    @usableFromInline
    static func exitUnframed(_ thread: ThreadState) {
        thread.depth -= 1
        if thread.depth == 0 && !thread.graph.isEmpty { clearGraph(on: thread) }
    }

    /// Pushes a frame for `keyPath` (after checking for a cycle), naming the caller's frame. The
    /// frame names the override whose factory builds the value, if one does.
    ///
    /// While a frame is open, the thread's nested resolutions leave the memo's common path, so
    /// that what the getter resolves is recorded (see `Frame.pendingKeys`).
    ///
    /// - Returns: The token for the `Injections` value handed to the keypath's getter.
    static func enter(
        _ keyPath: AnyKeyPath, of valueType: Any.Type, in layer: OverrideRegistry?,
        token: UInt64, caller: StaticString?, on thread: ThreadState, override: AnyOverride? = nil
    ) -> UInt64 {
        AutoRegistration.ensure()
        if let caller, let index = thread.frameIndex(token: token),
            thread.frames[index].name == nil
        {
            thread.frames[index].name = caller
        }
        checkForCycle(keyPath, on: thread)
        let frameToken = thread.makeToken()
        thread.depth += 1
        MemoTable.beginDetour()
        thread.frames.append(
            Frame(
                keyPath: keyPath, token: frameToken, valueType: valueType, depth: thread.depth,
                layer: layer, override: override))
        return frameToken
    }

    /// Pops the innermost frame; the outermost one takes the graph scope's instances with it.
    static func exit(on thread: ThreadState) -> Frame {
        popFrame(on: thread) { $0 }
    }

    /// Pops the innermost frame, like ``exit(on:)``, for a caller that needs nothing of it.
    @inline(__always)
    static func leave(on thread: ThreadState) {
        popFrame(on: thread) { _ in }
    }

    @inline(__always)
    private static func popFrame<Result>(on thread: ThreadState, _ keep: (Frame) -> Result)
        -> Result
    {
        let frame = thread.frames.removeLast()
        MemoTable.endDetour()
        if MemoTable.hasDetours {
            if Diagnostics.active { Diagnostics.resolved(frame, parent: thread.frames.last) }
            if let verification = thread.verification {
                verification.resolved(frame, parent: thread.frames.last)
            }
        }
        thread.depth -= 1
        if thread.depth == 0 && !thread.graph.isEmpty { clearGraph(on: thread) }
        return keep(frame)
    }

    private static func clearGraph(on thread: ThreadState) {
        let graph = thread.graph
        thread.graph = [:]
        withExtendedLifetime(graph) {}  // instances released once the state is consistent
    }

    private static func checkForCycle(_ keyPath: AnyKeyPath, on thread: ThreadState) {
        // Indexed in place: a copy of the array would retain and release its buffer on every
        // framed resolution.
        for index in thread.frames.indices where thread.frames[index].keyPath === keyPath {
            Failure.cycle(at: index, in: thread.frames)
        }
        if thread.frames.count >= deepCheckDepth,
            let index = thread.frames.firstIndex(where: { $0.keyPath == keyPath })
        {
            Failure.cycle(at: index, in: thread.frames)
        }
        if thread.depth >= depthLimit { Failure.tooDeep(thread.frames, depth: thread.depth) }
    }

    /// Records that `keyPath` had no override at `generation`, and, when its getter's one
    /// helper returned the getter's own result, which entry holds it.
    @usableFromInline
    static func remember<Value>(
        _ keyPath: KeyPath<Injections, Value>, value: Value, frame: Frame, generation: UInt64
    ) {
        // A keypath with arguments is not recorded: each one made at run time is a new object,
        // and recording it would keep it (and its arguments) alive for good.
        if frame.helperEntry?.key.argument != nil { return }
        let learned: MemoTable.Learned
        if frame.helperCount == 1, let entry = frame.helperEntry, entry.isHolding(value),
            entry.adoptView(Value.self)
        {
            // The entry's view, if the helper built another type (see `Entry.adoptView`).
            learned = .entry(entry, view: entry.key.type != ObjectIdentifier(Value.self))
        } else {
            learned = frame.helperCount == 0 ? .plainGetter : .getter
        }
        MemoTable.shared.remember(keyPath, learned, generation: generation)
    }

    /// A scope helper: the instance `scope` holds for the registration at `site`.
    static func scoped<Value>(
        _ scope: Injections.Scope, _ make: () -> Value, site: Site, token: UInt64,
        timeToLive: Duration?
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
        let registration: EntryKey.Registration =
            if let override = ownerIndex.flatMap({ thread.frames[$0].override }) {
                .override(override)
            } else if let argument {
                .argument(argument)
            } else if let owner, !site.isInPropertyGetter {
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
                    timeToLive: timeToLive ?? scope.timeToLive)
            }
            if let ownerIndex { thread.frames[ownerIndex].helperEntry = entry }
            // Recorded before the entry is read, for the same reason as a key's edge.
            if let building = thread.buildStack.last {
                DependencyIndex.shared.record(building, entry: entry)
            }
            if enclosing >= 0, thread.frames[enclosing].isOutsideHelpers {
                thread.frames[enclosing].pendingReads.entries.append(entry)
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
                    // What the getter resolved before its helper may have changed since, and
                    // the build, reusing it, cannot tell: not kept (see `ChangeCount`).
                    guard let ownerIndex, let pending = thread.frames[ownerIndex].pending else {
                        return true
                    }
                    return ChangeCount.current == pending.changesAtStart
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
            DependencyIndex.shared.record(entry, entry: read)
        }
    }
}
