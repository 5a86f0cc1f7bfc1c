/// Frames: the resolutions in progress on a thread, their depth, and the cycles they would close.
extension Resolver {
    /// Ends a plain getter's resolution, which `resolveRarely` started with the depth count
    /// alone: its memo record is current, no override applies, and it calls no scope helper, so
    /// it needs no frame (up to `framelessDepth`, past which resolutions take frames again, so
    /// that a cycle through plain getters is still caught and named).
    @usableFromInline
    static func exitUnframed(_ thread: ThreadState) {
        thread.depth -= 1
        if thread.depth == 0 && !thread.graph.isEmpty { clearGraph(on: thread) }
    }

    /// Pushes a frame for `keyPath` (after checking for a cycle), naming the caller's frame. The
    /// frame names the override whose factory builds the value, if one does.
    ///
    /// With `replacing`, the key is resolved by the factory of its own override (the innermost
    /// frame), for the value that override replaces (`override`: the next override beneath, or
    /// `nil` for the key's getter): frames before the innermost run of frames that so replace
    /// one another for `keyPath` still close a cycle if they resolve it, and the caller's frame
    /// (the override's) is not named after the caller.
    ///
    /// While a frame is open, the thread's nested resolutions leave the fast path, so
    /// that what the getter resolves is recorded (see `Frame.pending`).
    ///
    /// The ``AutoRegistering`` hook has run by then: the framed path runs it before it looks at
    /// the overrides, and a route the memo knows was learned after it ran (re-arming the hook
    /// makes every route stale).
    ///
    /// - Returns: The token for the `Injections` value handed to the keypath's getter.
    static func enter(
        _ keyPath: AnyKeyPath, of valueType: Any.Type, in layer: OverrideRegistry?,
        token: UInt64, caller: StaticString?, on thread: ThreadState, override: AnyOverride? = nil,
        replacing: Bool = false
    ) -> UInt64 {
        if replacing {
            checkForCycle(replacing: keyPath, on: thread)
        } else {
            if let caller { thread.frame(for: token)?.learnName(caller) }
            checkForCycle(keyPath, on: thread)
        }
        if thread.depth >= depthLimit { Failure.tooDeep(thread.frames, depth: thread.depth) }
        let frameToken = thread.makeToken(forFrameAt: thread.frames.count)
        thread.depth += 1
        MemoTable.beginDetour()
        thread.frames.append(
            Frame(
                keyPath: keyPath, token: frameToken, valueType: valueType, depth: thread.depth,
                layer: layer, override: override))
        return frameToken
    }

    /// Pops the innermost frame, whose resolution returned `value` on the route `lookup` (`nil`:
    /// an override's frame), for diagnostics; the outermost one takes the graph scope's
    /// instances with it.
    @discardableResult
    @inline(__always)
    static func exit<Value>(
        on thread: ThreadState, returning value: Value, lookup: Route? = nil
    ) -> Frame {
        let frame = thread.frames.removeLast()
        MemoTable.endDetour()
        Diagnostics.frameEnded(frame, returning: value, lookup: lookup, on: thread)
        thread.depth -= 1
        if thread.depth == 0 && !thread.graph.isEmpty { clearGraph(on: thread) }
        return frame
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
        let depth = thread.frames.count
        guard depth > 0, depth % deepCheckDepth == 0 else { return }
        // The nearest frame of the same key: the chain names the cycle once.
        for index in thread.frames.indices.reversed() where thread.frames[index].keyPath == keyPath
        {
            Failure.cycle(at: index, in: thread.frames)
        }
    }

    private static func checkForCycle(replacing keyPath: AnyKeyPath, on thread: ThreadState) {
        var start = thread.frames.count
        while start > 0, thread.frames[start - 1].servedByOverride,
            thread.frames[start - 1].keyPath == keyPath
        {
            start -= 1
        }
        if let index = thread.frames[..<start].firstIndex(where: { $0.keyPath == keyPath }) {
            Failure.cycle(at: index, in: thread.frames)
        }
    }
}
