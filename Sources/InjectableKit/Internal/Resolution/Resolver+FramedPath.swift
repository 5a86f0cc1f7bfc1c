/// The framed path: what the memo cannot serve (`Internal/README.md`, "The road of a resolution").
extension Resolver {
    /// A plain getter without a frame, up to `framelessDepth`; everything else in a frame.
    @usableFromInline
    static func resolveRarely<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Route, generation: UInt64, token: UInt64,
        caller: StaticString?, fileID: StaticString, line: UInt,
        apply: (_ token: UInt64) -> Value
    ) -> Value {
        // Borrowed in short steps: a closure holding the whole would be called, not inlined.
        let thread = ThreadState.unmanagedCurrent
        if token == OverrideLifetimes.probeToken {
            thread._withUnsafeGuaranteedRef { $0.probe?.resolvedOthers = true }
        }
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

    /// Out of line, so that a plain getter's path stays short.
    @inline(never)
    static func resolveInFrame<Value>(
        _ keyPath: KeyPath<Injections, Value>, lookup: Route, generation: UInt64, token: UInt64,
        caller: StaticString?, on thread: ThreadState, apply: (_ token: UInt64) -> Value
    ) -> Value {
        var lookup = lookup
        if case .override(let box) = lookup {
            // An `Override<Value>`: registered for this key or its type.
            let (override, entry, learned) = box._withUnsafeGuaranteedRef(\.served)
            if let override {
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
        // Borrowed: the core holds its overrides for good, and a layer's binding holds the layer.
        let registry: Unmanaged<OverrideRegistry>? =
            switch lookup {
            case .layered: Layers.current.map(Unmanaged.passUnretained)
            case .unknown, .observed: .passUnretained(Core.shared.overrides)
            case .entry, .plainGetter, .getter, .override: nil
            }
        let layer = registry?._withUnsafeGuaranteedRef(\.isLayer) == true ? registry : nil
        if let registry {
            // The factory of this key's own override may ask for the value it replaces.
            if MemoTable.hasDetours, let replacing = replacedLookup(keyPath, on: thread) {
                return resolveReplaced(
                    keyPath, replacing: replacing.override, layer: replacing.layer, token: token,
                    caller: caller, on: thread, apply: apply)
            }
            if KeyPathShape.hasSeveralComponents(keyPath) {
                // A test's failure, not a stop: applied as Swift does, and remembered not, so
                // every resolution fails again.
                Failure.keyPathThroughAKey(of: Value.self, caller: caller)
                lookup = .getter
            } else {
                AutoRegistration.ensure()
                if let override = registry._withUnsafeGuaranteedRef({
                    overrideRecordingDependency(keyPath, in: $0, on: thread)
                }) {
                    // Only a global override: slots describe the global registry.
                    if case .unknown = lookup, override.servedBy === Core.shared.overrides {
                        Core.shared.memo.remember(
                            keyPath, override: override.override, generation: generation)
                    }
                    return resolve(
                        keyPath, with: override.override, in: layer?.takeUnretainedValue(),
                        token: token, caller: caller, on: thread)
                }
            }
        }
        let frameToken = enter(
            keyPath, of: Value.self, in: layer?.takeUnretainedValue(), token: token, caller: caller,
            on: thread)
        let value = apply(frameToken)
        let frame = exit(on: thread, returning: value, lookup: lookup)
        if case .unknown = lookup {
            remember(keyPath, value: value, frame: frame, generation: generation)
        }
        return value
    }

    /// The override for `keyPath` in `registry` and beneath, the key recorded first for the
    /// build in progress and open frames' pending reads (README, "Dependency edges" 1, 3, 4).
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
        // NB: no `Value?`: its metadata would be made here at each type's first resolution.
        // Noted before the lookup, so that the counts precede everything read.
        if let thread, let reading {
            thread.withPendingReads(fromFrameAt: reading) { reads, mark in
                for here in sequence(first: registry, next: { $0.beneath }) {
                    reads.note(here, since: mark)
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
            thread.withPendingReads(fromFrameAt: reading) { reads, _ in reads.keys.append(read) }
        }
        guard let found, let servedBy else { return nil }
        return (found, servedBy)
    }

    /// `layer` is `nil` outside any layer.
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

    /// Serves `override` in the frame just entered (README, "Overrides keep their key's
    /// lifetime and decoration").
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

    /// A value of a type the decoration does not take is a mistake, handed out undecorated.
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

    /// The override whose factory resolves its own key as the innermost frame, and its layer.
    @inline(never)
    private static func replacedLookup(_ keyPath: AnyKeyPath, on thread: ThreadState)
        -> (override: AnyOverride, layer: OverrideRegistry?)?
    {
        guard let parent = thread.frames.last, let override = parent.override,
            parent.keyPath == keyPath
        else { return nil }
        return (override, parent.layer)
    }

    /// What `replacing` replaces, for its factory (README, "Objects", Frame), so that
    /// `register(\.weather) { var w = resolve(\.weather); ...; return w }` builds on it.
    @inline(never)
    private static func resolveReplaced<Value>(
        _ keyPath: KeyPath<Injections, Value>, replacing: AnyOverride,
        layer: OverrideRegistry?, token: UInt64, caller: StaticString?, on thread: ThreadState,
        apply: (_ token: UInt64) -> Value
    ) -> Value {
        // Decorated as it was built: what the factory builds on it is not decorated again.
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

    /// Records that no override applied at `generation`, and the entry that holds the value.
    private static func remember<Value>(
        _ keyPath: KeyPath<Injections, Value>, value: Value, frame: Frame, generation: UInt64
    ) {
        // A keypath with arguments is a new object at each evaluation, which a slot would keep.
        if frame.helperEntry?.key.argument != nil { return }
        // Borrowed: the core holds its memo for good.
        Unmanaged.passUnretained(Core.shared.memo)._withUnsafeGuaranteedRef { memo in
            guard memo.remembers(keyPath) else { return }
            let learned =
                entryRoute(of: frame, holding: value)
                ?? (frame.helperCount == 0 ? .plainGetter : .getter)
            memo.remember(keyPath, learned, generation: generation)
        }
    }

    /// The entry of the frame's one helper, if it holds `value`; its view if of another type.
    private static func entryRoute<Value>(of frame: Frame, holding value: Value) -> Route? {
        guard frame.helperCount == 1, let entry = frame.helperEntry,
            entry.isHolding(value), entry.adoptView(Value.self)
        else { return nil }
        return .entry(
            Unmanaged.passUnretained(entry), view: entry.key.type != ObjectIdentifier(Value.self))
    }
}
