import Synchronization

/// The resolution algorithm: overrides first, then the keypath's own getter, with a per-thread
/// memo that reads an already cached instance without applying the keypath.
enum Resolver {
    /// How deep resolutions may nest before they are taken for an unbounded cycle.
    static let depthLimit = 512
    /// From this depth on, cycle detection also compares keypaths by value (not only by object).
    static let deepCheckDepth = 32

    static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, token: UInt64, caller: StaticString?
    ) -> Value {
        AutoRegistration.ensure()
        let thread = ThreadState.current
        let registry = OverrideRegistry.shared
        let generation = registry.generation.load(ordering: .acquiring)
        let memo = thread.memo[ObjectIdentifier(keyPath)]
        let memoIsCurrent = memo?.generation == generation
        if memoIsCurrent, let entry = memo?.entry, let value = entry.value(as: Value.self) {
            return value
        }

        if let caller, let index = thread.frameIndex(token: token),
            thread.frames[index].name == nil
        {
            thread.frames[index].name = "\(caller)"
        }
        checkForCycle(keyPath, on: thread)

        let override = memoIsCurrent || registry.isEmpty ? nil : registry.override(for: keyPath)
        let frameToken = thread.makeToken()
        thread.frames.append(Frame(keyPath: keyPath, token: frameToken, valueType: Value.self))
        let value = override?.make() ?? Injections(token: frameToken)[keyPath: keyPath]
        let frame = thread.frames.removeLast()
        if thread.frames.isEmpty && !thread.graph.isEmpty {
            let graph = thread.graph
            thread.graph = [:]
            withExtendedLifetime(graph) {}  // instances released once the state is consistent
        }

        if override == nil {
            remember(keyPath, value: value, frame: frame, generation: generation, on: thread)
        }
        return value
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
        _ keyPath: KeyPath<Injections, Value>, value: Value, frame: Frame, generation: UInt64,
        on thread: ThreadState
    ) {
        var entry: Entry? = nil
        if frame.helperCount == 1, let helperEntry = frame.helperEntry,
            helperEntry.key.argument == nil || helperEntry.key.argument === keyPath,
            helperEntry.isHolding(value), helperEntry.adoptView(Value.self)
        {
            entry = helperEntry
        }
        if thread.memo.count >= ThreadState.memoLimit { thread.memo.removeAll() }
        thread.memo[ObjectIdentifier(keyPath)] = Memo(
            keyPath: keyPath, generation: generation, entry: entry)
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
            if let box = thread.graph[key] { return unsafeDowncast(box, to: Box<Value>.self).value }
            let value = make()
            if !isNil(value) { thread.graph[key] = Box(value) }
            return value
        }

        let entry = scope.storage.entry(
            for: key, owner: owner, holdsWeakly: scope.kind == .shared,
            timeToLive: timeToLive ?? scope.timeToLive)
        if let ownerIndex { thread.frames[ownerIndex].helperEntry = entry }
        return entry.obtain(make, on: thread)
    }
}
