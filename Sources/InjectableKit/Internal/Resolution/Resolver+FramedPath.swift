/// The framed path: a resolution the memo cannot serve, checked against the overrides, run in a
/// frame, and remembered for the next one.
extension Resolver {
    /// Resolves what the inlined path does not: a plain getter (without a frame, while not
    /// nested too deep), and through ``resolveInFrame`` everything else.
    @usableFromInline
    static func resolveRarely<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Route, generation: UInt64, token: UInt64,
        caller: StaticString?, fileID: StaticString, line: UInt,
        apply: (_ token: UInt64) -> Value
    ) -> Value {
        // Borrowed in short steps: a closure holding the whole of it would be called, not
        // inlined.
        let thread = ThreadState.unmanagedCurrent
        if token == OverrideLifetimes.probeToken {
            thread._withUnsafeGuaranteedRef { $0.probe?.resolvedOthers = true }
        }
        // Called from code outside the getters (a line given): a mistake the resolution
        // makes is located there, unless it is nested in another resolution (whose call
        // site holds).
        let outermost = thread._withUnsafeGuaranteedRef { thread in
            guard line != 0 && thread.depth == 0 else { return false }
            (thread.callFile, thread.callLine) = (fileID, line)
            return true
        }
        defer { if outermost { thread._withUnsafeGuaranteedRef { $0.callLine = 0 } } }
        if case .plainGetter = lookup,
            thread._withUnsafeGuaranteedRef({ $0.depth < framelessDepth })
        {
            thread._withUnsafeGuaranteedRef { $0.depth += 1 }
            defer { thread._withUnsafeGuaranteedRef { exitUnframed($0) } }
            return apply(0)
        }
        return thread._withUnsafeGuaranteedRef {
            resolveInFrame(
                keyPath, lookup: lookup, generation: generation, token: token, caller: caller,
                on: $0, apply: apply)
        }
    }

    /// Resolves `keyPath` in a frame: a first resolution (checking the overrides, then
    /// remembering what it learned), a resolution in a task-local layer or while observed, an
    /// entry that holds no instance yet, a getter that calls helpers but cannot be served from
    /// an entry, and a plain getter nested too deep to go without a frame. Out of line, so that
    /// a plain getter's path stays short.
    @inline(never)
    static func resolveInFrame<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Route, generation: UInt64, token: UInt64,
        caller: StaticString?, on thread: ThreadState, apply: (_ token: UInt64) -> Value
    ) -> Value {
        var lookup = lookup
        if case .override(let box) = lookup {
            // Registered for this key or its type: an `Override<Value>` (see
            // `OverrideRegistry.override(for:servedBy:byKey:)`).
            let (override, entry, learned) = box._withUnsafeGuaranteedRef(\.served)
            if let override {
                // Nothing to record here (the memo's route is taken outside frames, builds and
                // layers): what the override keeps is read as a key's cached instance is.
                // NB: a slot, not `Value?`, whose metadata this unspecialised code would look up.
                if let entry {
                    let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
                    defer { slot.deallocate() }
                    if entry.read(into: slot) { return slot.move() }
                }
                return resolve(
                    keyPath, with: unsafeDowncast(override, to: Override<Value>.self),
                    in: nil, token: token, caller: caller, on: thread,
                    box: box.takeUnretainedValue(), known: learned)
            }
            lookup = .unknown  // a change emptied the box: look again
        }
        // Overrides are checked unless the memo said none applies.
        let registry: OverrideRegistry? =
            switch lookup {
            case .layered: Layers.current
            case .unknown, .observed: Core.shared.overrides
            case .entry, .plainGetter, .getter, .override: nil
            }
        if let registry {
            // Nested in a frame (`.layered`, `.observed`): the factory of this key's own
            // override may be asking for the value it replaces.
            if MemoTable.hasDetours, let replacing = replacedLookup(keyPath, on: thread) {
                return resolveReplaced(
                    keyPath, replacing: replacing.override, layer: replacing.layer, token: token,
                    caller: caller, on: thread, apply: apply)
            }
            if KeyPathShape.hasSeveralComponents(keyPath) {
                // Once its test has failed for it, applied as Swift applies it: the first key's
                // getter runs past its overrides, in a frame of its own. Nothing is learned or
                // remembered (as for a getter the memo knows), so every resolution fails again.
                Failure.keyPathThroughAKey(of: Value.self, caller: caller)
                lookup = .getter
            } else {
                AutoRegistration.ensure()
                if let override = overrideRecordingDependency(keyPath, in: registry, on: thread) {
                    // A global override is remembered, so that the key's call sites find it
                    // without the registry's lock or a hash of the keypath.
                    if case .unknown = lookup, override.servedBy === Core.shared.overrides {
                        Core.shared.memo.remember(
                            keyPath, override: override.override, generation: generation)
                    }
                    return resolve(
                        keyPath, with: override.override, in: registry.isLayer ? registry : nil,
                        token: token, caller: caller, on: thread)
                }
            }
        }
        let frameToken = enter(
            keyPath, of: Value.self, in: registry?.isLayer == true ? registry : nil, token: token,
            caller: caller, on: thread)
        let value = apply(frameToken)
        let frame = exit(on: thread, returning: value, lookup: lookup)
        if case .unknown = lookup {
            remember(keyPath, value: value, frame: frame, generation: generation)
        }
        return value
    }

    /// The override for `keyPath` in `registry` and those beneath it, if any, having recorded
    /// the key as a dependency of what is being built from it: of the build in progress, and,
    /// when the enclosing resolution's getter runs outside its helpers, of that resolution's
    /// helper entry, once it builds (`Frame.pending`).
    ///
    /// A build records what it asks for, in every registry it consults, before looking it up: a
    /// change the lookup misses then finds the edge, and has the build run again (see
    /// `DependencyIndex`). Registries beneath the one whose override served the key cannot change
    /// this resolution with an override of the same kind, and a key's own override hides every
    /// override for its type: those edges are taken back.
    private static func overrideRecordingDependency<Value>(
        _ keyPath: KeyPath<Injections, Value>, in registry: OverrideRegistry,
        after replaced: AnyOverride? = nil, on state: ThreadState
    ) -> (override: Override<Value>, servedBy: OverrideRegistry)? {
        let type = ObjectIdentifier(Value.self)
        let thread = MemoTable.hasDetours ? state : nil
        let building = thread?.buildStack.last
        // The innermost frame's index, if a read now flows into open frames' pending reads.
        let reading = thread.flatMap { thread in
            thread.frames.last?.isOutsideHelpers == true ? thread.frames.count - 1 : nil
        }
        let chain = building != nil || reading != nil ? registry.serials : []
        if let building {
            Core.shared.dependencies.record(
                building, key: keyPath, type: type, keyRegistries: chain, typeRegistries: chain)
        }
        // NB: no `Value?` here: in this unspecialised code it would need `Optional<Value>`'s
        // metadata, made at each type's first resolution.
        // Noted before the lookup, so that the counts precede everything read.
        if let thread, let reading {
            thread.forEachPendingReads(fromFrameAt: reading) { reads in
                var consulted: OverrideRegistry? = registry
                while let here = consulted {
                    reads.note(here)
                    consulted = here.beneath
                }
            }
        }
        var servedBy: OverrideRegistry?
        var byKey = false
        let found = registry.override(
            for: keyPath, after: replaced, servedBy: &servedBy, byKey: &byKey)
        var keyRegistries = chain
        var typeRegistries = chain
        if found != nil, let servedBy, let index = chain.firstIndex(of: servedBy.serial) {
            if byKey { keyRegistries = Array(chain[...index]) }
            typeRegistries = byKey ? [] : Array(chain[...index])
            if let building {
                // Takes back what this lookup recorded where the override hides the rest.
                let beneath = Array(chain[(index + 1)...])
                Core.shared.dependencies.record(
                    building, key: keyPath, type: type, keyRegistries: byKey ? beneath : [],
                    typeRegistries: byKey ? chain : beneath, count: -1)
            }
        }
        if let thread, let reading {
            let read = PendingKey(
                key: keyPath, type: type, keyRegistries: keyRegistries,
                typeRegistries: typeRegistries)
            thread.forEachPendingReads(fromFrameAt: reading) { $0.keys.append(read) }
        }
        guard let found, let servedBy else { return nil }
        return (found, servedBy)
    }

    /// Resolves `keyPath` with `override`, its override, in a frame, for a resolution in
    /// `layer` (`nil`: outside any layer).
    private static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, with override: Override<Value>,
        in layer: OverrideRegistry?, token: UInt64, caller: StaticString?, on thread: ThreadState,
        box: OverrideBox? = nil, known: OverrideLifetimes.Learned? = nil
    ) -> Value {
        let frameToken = enter(
            keyPath, of: Value.self, in: layer, token: token, caller: caller, on: thread,
            override: override)
        var learned = known
        let value = serve(keyPath, override, frameToken: frameToken, learned: &learned)
        if let box {
            let entry = thread.frames[thread.frames.count - 1].helperEntry
            if entry != nil || known == nil { box.remember(entry, learned, for: override) }
        }
        exit(on: thread, returning: value)
        return value
    }

    /// Serves `override` in the frame just entered. One that keeps the key's lifetime builds
    /// where the key's first scope helper keeps its instance, as that helper's registration of
    /// the override; one with a scope of its own, in that scope. Either way, what it builds is
    /// decorated by that helper's decoration, once as it is built. Where the helper is, and its
    /// decoration, a probe of the getter finds once (see `OverrideLifetimes`).
    private static func serve<Value>(
        _ keyPath: KeyPath<Injections, Value>, _ override: Override<Value>, frameToken: UInt64,
        learned: inout OverrideLifetimes.Learned?
    ) -> Value {
        override.markServed()
        if learned == nil {
            learned = OverrideLifetimes.lifetime(of: keyPath, named: KeyNames.describe(keyPath))
        }
        guard let placement = learned?.placement else {
            // No helper: no decoration either.
            guard let scope = override.scope else { return override.make() }
            return scoped(
                scope, override.make, site: AnyOverride.scopeSite, token: 0, timeToLive: nil,
                decorate: nil)
        }
        let decorate = placement.decoration.map { decoration in
            { @Sendable (value: inout Value) in
                decorateOverride(&value, with: decoration)
            }
        }
        if let scope = override.scope {
            return scoped(
                scope, override.make, site: AnyOverride.scopeSite, token: 0, timeToLive: nil,
                decorate: decorate)
        }
        return scoped(
            placement.scope, override.make, site: placement.site, token: frameToken,
            timeToLive: placement.timeToLive, decorate: decorate)
    }

    /// Runs a key's decoration on a value one of its overrides built, if the value is of the
    /// type the decoration takes; a mistake otherwise (the decoration cannot run).
    private static func decorateOverride<Value>(
        _ value: inout Value, with decoration: AnyDecoration
    ) {
        guard !isNil(value), !decoration.apply(to: &value) else { return }
        // The override's frame is the innermost: the value's own resolutions have ended.
        let name = ThreadState.current.frames.last.map(Failure.name(of:)) ?? "a key"
        Failure.undecoratedOverride(
            of: name, keyType: Value.self, valueType: type(of: value as Any),
            decorated: decoration.decoratedType)
    }

    /// The override whose factory is resolving `keyPath`, its own key, as the innermost frame,
    /// and the layer that resolution is in (`nil`: outside any layer).
    @inline(never)
    private static func replacedLookup(_ keyPath: AnyKeyPath, on thread: ThreadState)
        -> (override: AnyOverride, layer: OverrideRegistry?)?
    {
        guard let parent = thread.frames.last, let override = parent.override,
            parent.keyPath == keyPath
        else { return nil }
        return (override, parent.layer)
    }

    /// Resolves `keyPath` for the factory of `replacing`, its own override: with the override
    /// that follows it in the registries `layer`'s resolution consults (the key's, beneath
    /// `replacing`, then its type's, in the same registry too), or else with the key's getter,
    /// whose helpers keep their instances where the key's own resolutions do (in `layer`'s
    /// caches in a layer). So `register(\.weather) { var w = resolve(\.weather); ...; return w }`
    /// builds on what the key would be without it.
    @inline(never)
    private static func resolveReplaced<Value>(
        _ keyPath: KeyPath<Injections, Value>, replacing: AnyOverride,
        layer: OverrideRegistry?, token: UInt64, caller: StaticString?, on thread: ThreadState,
        apply: (_ token: UInt64) -> Value
    ) -> Value {
        // The factory builds on a value decorated as it was built: its result is not decorated
        // again.
        thread.innermostResolution?.replacedValueResolved()
        let found = overrideRecordingDependency(
            keyPath, in: layer ?? Core.shared.overrides, after: replacing, on: thread)
        let frameToken = enter(
            keyPath, of: Value.self, in: layer, token: token, caller: caller, on: thread,
            override: found?.override, replacing: true)
        var learned: OverrideLifetimes.Learned?
        let value =
            found.map { serve(keyPath, $0.override, frameToken: frameToken, learned: &learned) }
            ?? apply(frameToken)
        exit(on: thread, returning: value)
        return value
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
        guard Core.shared.memo.remembers(keyPath) else { return }
        let learned =
            entryRoute(of: frame, holding: value)
            ?? (frame.helperCount == 0 ? .plainGetter : .getter)
        Core.shared.memo.remember(keyPath, learned, generation: generation)
    }

    /// The entry that served the frame's one helper, if it holds `value`: read from there next
    /// time. With its view, if the helper built another type (see `Entry.adoptView`).
    private static func entryRoute<Value>(of frame: Frame, holding value: Value) -> Route? {
        guard frame.helperCount == 1, let entry = frame.helperEntry,
            entry.isHolding(value), entry.adoptView(Value.self)
        else { return nil }
        return .entry(
            Unmanaged.passUnretained(entry), view: entry.key.type != ObjectIdentifier(Value.self))
    }
}
