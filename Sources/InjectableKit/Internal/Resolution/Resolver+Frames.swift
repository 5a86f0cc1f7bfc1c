/// Frames: the resolutions in progress on a thread, their depth, and the cycles they would close.
extension Resolver {
    /// Ends a plain getter's resolution, which counts depth and takes no frame (and, after
    /// `exit`, a framed one's depth).
    static func exitUnframed(_ thread: ThreadState) {
        thread.depth -= 1
        if thread.depth == 0 && !thread.graph.isEmpty { clearGraph(on: thread) }
    }

    /// Pushes a frame after the cycle check, and returns its getter's token. With `replacing`
    /// (README, "Objects", Frame), the caller's frame, the override's, is not named.
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

    /// `lookup` is `nil` for an override's frame; the outermost takes the graph's instances.
    @discardableResult
    @inline(__always)
    static func exit<Value>(
        on thread: ThreadState, returning value: Value, lookup: Route? = nil
    ) -> Frame {
        let frame = thread.frames.removeLast()
        MemoTable.endDetour()
        Diagnostics.frameEnded(frame, returning: value, lookup: lookup, on: thread)
        exitUnframed(thread)
        return frame
    }

    private static func clearGraph(on thread: ThreadState) {
        let graph = thread.graph
        thread.graph = [:]
        withExtendedLifetime(graph) {}  // instances released once the state is consistent
    }

    private static func checkForCycle(_ keyPath: AnyKeyPath, on thread: ThreadState) {
        // Indexed in place: a copy would retain and release the buffer per framed resolution.
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
