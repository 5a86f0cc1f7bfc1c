import Synchronization

/// The resolution algorithm: overrides first, then the keypath's own getter, with a memo table
/// that reads an already cached instance without applying the keypath, taking a lock or hashing
/// the keypath.
@usableFromInline
enum Resolver {
    /// How deep resolutions may nest before they are taken for an unbounded cycle.
    static let depthLimit = 512
    /// From this depth on, cycle detection also compares keypaths by value (not only by object).
    static let deepCheckDepth = 32

    /// What the memo table knows about a keypath at the current override generation.
    @usableFromInline
    enum Lookup {
        /// Nothing current: check the overrides, then apply the keypath.
        case unknown
        /// No override applies; the keypath's getter builds a new instance every time.
        case getter
        /// No override applies; the entry holds the keypath's instance, when it holds one.
        case entry(Unmanaged<Entry>)
    }

    /// The common path's first step: neither locks, retains nor hashes the keypath.
    ///
    /// Records are made only by resolutions that ran the ``AutoRegistering`` hook first, and
    /// re-arming the hook makes every record stale, so the hook needs no check here.
    @usableFromInline
    static func lookup(_ keyPath: AnyKeyPath) -> (Lookup, generation: UInt64) {
        let generation = OverrideRegistry.shared.generation.load(ordering: .acquiring)
        guard let record = MemoTable.shared.record(for: keyPath) else {
            return (.unknown, generation)
        }
        return record._withUnsafeGuaranteedRef { record in
            guard record.generation.load(ordering: .acquiring) == generation else {
                return (.unknown, generation)
            }
            return (record.entry.map(Lookup.entry) ?? .getter, generation)
        }
    }

    /// Resolves `keyPath`. Inlined into the caller, where `Value` is known, so that reading a
    /// cached instance needs no generic metadata and no dynamic cast.
    @inlinable
    static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, token: UInt64, caller: StaticString?
    ) -> Value {
        let (lookup, generation) = lookup(keyPath)
        let known: Bool
        switch lookup {
        case .entry(let entry):
            if let value = entry._withUnsafeGuaranteedRef({ $0.value(as: Value.self) }) {
                return value
            }
            known = true
        case .getter:
            known = true
        case .unknown:
            known = false
        }
        // The keypath is applied here, where it is specialised, rather than in the slow path.
        return resolveSlowly(
            keyPath, token: token, caller: caller, generation: generation, known: known
        ) { $0[keyPath: keyPath] }
    }

    /// Applies the override or the keypath (through `apply`), with a frame on the thread's
    /// resolution stack. When `known` (the memo table is current for `keyPath`), no override
    /// applies and there is nothing new to remember.
    @usableFromInline
    static func resolveSlowly<Value>(
        _ keyPath: KeyPath<Injections, Value>, token: UInt64, caller: StaticString?,
        generation: UInt64, known: Bool, apply: (Injections) -> Value
    ) -> Value {
        AutoRegistration.ensure()
        let thread = ThreadState.current
        let frameToken = enter(keyPath, of: Value.self, token: token, caller: caller, on: thread)
        if !known, let override = override(for: keyPath) {
            let value = override.make()
            _ = exit(on: thread)
            return value
        }
        let value = apply(Injections(token: frameToken))
        let frame = exit(on: thread)
        if !known {
            remember(keyPath, value: value, frame: frame, generation: generation)
        }
        return value
    }

    private static func override<Value>(for keyPath: KeyPath<Injections, Value>) -> Override<Value>?
    {
        let registry = OverrideRegistry.shared
        return registry.isEmpty ? nil : registry.override(for: keyPath)
    }

    /// Pushes a frame for `keyPath` (after checking for a cycle), naming the caller's frame.
    ///
    /// - Returns: The token for the `Injections` value handed to the keypath's getter.
    private static func enter(
        _ keyPath: AnyKeyPath, of valueType: Any.Type, token: UInt64, caller: StaticString?,
        on thread: ThreadState
    ) -> UInt64 {
        if let caller, let index = thread.frameIndex(token: token),
            thread.frames[index].name == nil
        {
            thread.frames[index].name = "\(caller)"
        }
        checkForCycle(keyPath, on: thread)
        let frameToken = thread.makeToken()
        thread.frames.append(Frame(keyPath: keyPath, token: frameToken, valueType: valueType))
        return frameToken
    }

    /// Pops the innermost frame; the outermost one takes the graph scope's instances with it.
    private static func exit(on thread: ThreadState) -> Frame {
        let frame = thread.frames.removeLast()
        if thread.frames.isEmpty && !thread.graph.isEmpty {
            let graph = thread.graph
            thread.graph = [:]
            withExtendedLifetime(graph) {}  // instances released once the state is consistent
        }
        return frame
    }

    private static func checkForCycle(_ keyPath: AnyKeyPath, on thread: ThreadState) {
        let frames = thread.frames
        if let index = frames.firstIndex(where: { $0.keyPath === keyPath }) {
            Failure.cycle(at: index, in: frames)
        }
        guard frames.count >= deepCheckDepth else { return }
        if let index = frames.firstIndex(where: { $0.keyPath == keyPath }) {
            Failure.cycle(at: index, in: frames)
        }
        if frames.count >= depthLimit { Failure.tooDeep(frames) }
    }

    /// Records that `keyPath` had no override at `generation`, and, when its getter's one
    /// helper returned the getter's own result, which entry holds it.
    private static func remember<Value>(
        _ keyPath: KeyPath<Injections, Value>, value: Value, frame: Frame, generation: UInt64
    ) {
        var entry: Entry? = nil
        if frame.helperCount == 1, let helperEntry = frame.helperEntry,
            helperEntry.key.argument == nil || helperEntry.key.argument === keyPath,
            helperEntry.isHolding(value), helperEntry.adoptView(Value.self)
        {
            entry = helperEntry
        }
        MemoTable.shared.remember(keyPath, entry: entry, generation: generation)
    }

    /// A scope helper: the instance `scope` holds for the registration at `site`.
    static func scoped<Value>(
        _ scope: Injections.Scope, _ make: () -> Value, site: Site, token: UInt64,
        timeToLive: Duration?
    ) -> Value {
        let thread = ThreadState.current
        if let index = thread.frameIndex(token: token), thread.frames[index].name == nil {
            thread.frames[index].name = site.name
        }
        let ownerIndex = thread.frames.indices.last
        let owner = ownerIndex.map { thread.frames[$0].keyPath }
        var argument: AnyKeyPath? = nil
        if site.isSubscript {
            // Without the keypath that carries the arguments there is nothing to key by.
            guard let owner else { return make() }
            argument = owner
        }
        let key = EntryKey(site: site, type: ObjectIdentifier(Value.self), argument: argument)
        if let ownerIndex { thread.frames[ownerIndex].helperCount += 1 }

        if scope.kind == .graph {
            guard ownerIndex != nil else { return make() }
            if let cell = thread.graph[key] { return cell.value(as: Value.self) }
            let value = make()
            if !isNil(value) { thread.graph[key] = StrongCell(value) }
            return value
        }

        let entry = scope.storage.entry(
            for: key, owner: owner, holdsWeakly: scope.kind == .shared,
            timeToLive: timeToLive ?? scope.timeToLive)
        if let ownerIndex { thread.frames[ownerIndex].helperEntry = entry }
        return entry.obtain(make, on: thread)
    }
}
