/// The resolution algorithm: overrides first, then the keypath's own getter, with a memo table
/// that reads an already cached instance without applying the keypath, taking a lock or hashing
/// the keypath.
///
/// Every resolution takes one road, read in this order: ``resolve(_:token:caller:)`` asks the
/// memo (this file); what the memo cannot serve takes the framed path
/// (`Resolver+FramedPath.swift`: overrides, then the getter in a frame), whose frames
/// (`Resolver+Frames.swift`) carry what the getter's scope helpers report
/// (`Resolver+Scopes.swift`).
@usableFromInline
enum Resolver {
    /// How deep resolutions may nest before they are taken for an unbounded cycle.
    static let depthLimit = 512
    /// How deep plain getters resolve without frames (see `exitUnframed`).
    static let framelessDepth = 64
    /// At each multiple of this depth, cycle detection also compares keypaths by value (not
    /// only by object): a cycle through other call sites' keypath objects repeats, so one of
    /// these checks meets it, while a deep graph without one pays for a check now and then,
    /// not at every level.
    static let deepCheckDepth = 32

    /// The fast path's first step: neither locks, retains nor hashes the keypath.
    ///
    /// Slots are made only by resolutions that ran the ``AutoRegistering`` hook first, and
    /// re-arming the hook makes every slot stale, so the hook needs no check here.
    @usableFromInline
    static func lookup(_ keyPath: AnyKeyPath) -> (Route, generation: UInt64) {
        let generation = UInt64(MemoTable.generation.loadAcquiring())
        if MemoTable.hasDetours { return (detour(keyPath, at: generation), generation) }
        return (Route(word: MemoTable.entryWord(for: keyPath, at: generation)), generation)
    }

    /// ``lookup(_:)`` while something may take this resolution off the fast path: a task-local
    /// layer, or the trace, the graph recording or a build to observe. Out of line, so that
    /// ``lookup(_:)`` stays a leaf function.
    @inline(never)
    private static func detour(_ keyPath: AnyKeyPath, at generation: UInt64) -> Route {
        if Layers.mayBeInEffect, Layers.boundLayer != nil { return .layered }
        // Only layers in effect elsewhere: nothing else to look at.
        if MemoTable.hasDetoursBesideLayers, let observed = observed(keyPath) { return observed }
        return Route(word: MemoTable.entryWord(for: keyPath, at: generation))
    }

    /// Whether a resolution outside any layer is observed, for diagnostics or because it is
    /// nested in a frame or a build (what it resolves is recorded).
    @inline(never)
    private static func observed(_ keyPath: AnyKeyPath) -> Route? {
        Diagnostics.observes(keyPath) || ThreadState.isResolvingHere ? .observed : nil
    }

    /// Resolves `keyPath`. Inlined into the caller, where `Value` is known, so that reading a
    /// cached instance needs no generic metadata and no dynamic cast.
    ///
    /// NB: the inlined code differs from one call site to the next only in its constants (the
    /// keypath literal, the closure that applies it, and the call's file and line, where a
    /// mistake in a test is reported), and every other instruction of it would be repeated at
    /// each call site: with many registrations, each call site's code of its own is a likely
    /// instruction-cache miss per cache line. Hence the caller's name only when there is a
    /// frame to name (`token` is 0 for `container`), the getter applied out of line, through
    /// `apply`, even for a plain getter, and no use of `Value`'s metadata. It is also what every
    /// app module's optimiser works through once per call site, which is most of the library's
    /// share of an app's build time: hence calls, not closures or generic functions, for the
    /// entry's read, and no lock code inlined.
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
