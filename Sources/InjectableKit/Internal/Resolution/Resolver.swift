/// The one road of every resolution (`Internal/README.md`, "The road of a resolution"): the
/// memo here, then the framed path, its frames and the scope helpers (`Resolver+*.swift`).
@usableFromInline
enum Resolver {
    /// How deep resolutions may nest before they are taken for an unbounded cycle.
    static let depthLimit = 512
    /// How deep plain getters resolve without frames (see `exitUnframed`).
    static let framelessDepth = 64
    /// At each multiple of this depth, the cycle check compares keypaths by value too.
    static let deepCheckDepth = 32

    /// The fast path's first step: neither locks, retains nor hashes the keypath. No check of
    /// the hook: only resolutions that ran it make slots, and re-arming it makes them stale.
    @usableFromInline
    static func lookup(_ keyPath: AnyKeyPath) -> (Route, generation: UInt64) {
        let generation = UInt64(MemoTable.generation.loadAcquiring())
        if MemoTable.hasDetours { return (detour(keyPath, at: generation), generation) }
        return (Route(word: MemoTable.entryWord(for: keyPath, at: generation)), generation)
    }

    /// ``lookup(_:)`` while a detour is counted; out of line, so that it stays a leaf function.
    @inline(never)
    private static func detour(_ keyPath: AnyKeyPath, at generation: UInt64) -> Route {
        if Layers.current != nil { return .layered }
        if MemoTable.hasDetoursBesideLayers, let observed = observed(keyPath) { return observed }
        return Route(word: MemoTable.entryWord(for: keyPath, at: generation))
    }

    /// Whether a resolution outside any layer is watched, or nested in a frame or a build.
    @inline(never)
    private static func observed(_ keyPath: AnyKeyPath) -> Route? {
        Diagnostics.observes(keyPath) || ThreadState.isResolvingHere ? .observed : nil
    }

    /// Inlined where `Value` is known: a cached instance is read with no metadata or cast.
    /// NB: call sites differ only in constants, yet each copy costs instruction-cache misses and
    /// build time: hence the caller's name only with a frame (`token` 0 for `container`), the
    /// getter applied out of line (`apply`), and no closure, generic or lock code inlined.
    @inlinable @inline(__always)
    static func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, token: UInt64, caller: StaticString?,
        fileID: StaticString = "", line: UInt = 0
    ) -> Value {
        let (lookup, generation) = lookup(keyPath)
        if case .entry(let entry, let view) = lookup {
            // Decided when the code is specialised: one non-generic read for every class type.
            if isObjectReference(Value.self) {
                if let object = entry._withUnsafeGuaranteedRef({ $0.object(view: view) }) {
                    return unsafeBitCast(object, to: Value.self)
                }
            } else if let storage = entry._withUnsafeGuaranteedRef({ $0.beginRead(view: view) }) {
                let value = storage.assumingMemoryBound(to: Value.self).pointee
                entry._withUnsafeGuaranteedRef { $0.endRead() }
                return value
            }
        }
        // The closure is specialised for the keypath literal: it calls the getter directly.
        return resolveRarely(
            keyPath, lookup: lookup, generation: generation, token: token,
            caller: token == 0 ? nil : caller, fileID: fileID, line: token == 0 ? line : 0
        ) { Injections(token: $0)[keyPath: keyPath] }
    }
}
