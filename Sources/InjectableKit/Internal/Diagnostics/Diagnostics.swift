import CInjectableAtomics

/// What watches resolutions: the opt-in trace and graph recording, `Injections.verify`'s
/// checks, the running tests' layers (`TestLayers`) and the names of keys (`KeyNames`). The
/// slow path calls it in two places, at a detour (``observes(_:)``) and as a frame ends
/// (``frameEnded(_:returning:lookup:on:)``). While nothing watches, the fast path never looks
/// here: it checks one counter it reads anyway (`MemoTable.detours`), which turning a trace or
/// recording on raises so that every resolution takes the framed path, where frames say who
/// resolved what.
enum Diagnostics {
    /// 1 while a trace or recording is on anywhere, else 0.
    private static var isOn: AtomicWord { AtomicWord(static: IK_DIAGNOSTICS_ON) }
    /// 1 while one started outside any layer is on, else 0.
    private static var isGlobal: AtomicWord { AtomicWord(static: IK_DIAGNOSTICS_GLOBAL) }
    static let lock = Lock(rank: .diagnostics)

    /// Where one trace and one graph recording go.
    struct Sinks {
        var tracer: (@Sendable (Injections.TraceEvent) -> Void)?
        var recorder: GraphRecorder?

        var isEmpty: Bool { tracer == nil && recorder == nil }
    }

    // Guarded by `lock`: what was started, by the serial of the layer it was started in (never
    // reused), which sees that layer's resolutions and its nested layers'; `nil`: outside any
    // layer, which sees every resolution.
    nonisolated(unsafe) static var started: [UInt64?: Sinks] = [:]

    /// Whether a trace or recording is on anywhere: finished frames are reported.
    private static var active: Bool { isOn.boolAcquiring }

    /// The hook at a detour (`Resolver.detour`), for a resolution outside any layer: checks it
    /// against the running tests' layers, then says whether a trace or recording started
    /// outside any layer is on, so that it takes a frame and is reported. (Resolutions in a
    /// layer take frames anyway.)
    @inline(__always)
    static func observes(_ keyPath: AnyKeyPath) -> Bool {
        // Tests run in their layers: one resolving outside any may have left a test's task.
        if TestLayers.isWatching { TestLayers.check(keyPath) }
        return isGlobal.boolAcquiring
    }

    /// The hook at a frame's end (`Resolver.exit`), before the frame's depth is let go of: the
    /// frame's resolution returned `value`, having taken the route `lookup` (`nil`: the frame
    /// of an override, or of a value one replaces). What watches is told while the memo's
    /// detour is on (each of them keeps it on); the key's name is learned where a key resolves
    /// in a frame only now and then (a first resolution, or in a layer), not on the paths that
    /// take a frame every time.
    @inline(__always)
    static func frameEnded<Value>(
        _ frame: Frame, returning value: Value, lookup: Route?, on thread: ThreadState
    ) {
        if MemoTable.hasDetours { observe(frame, returning: value, lookup: lookup, on: thread) }
        switch lookup {
        case .unknown?, .layered?, .observed?:
            if let name = frame.name { KeyNames.learn(frame.keyPath, name) }
        default:
            break
        }
    }

    /// Reports a frame's end to the trace, the graph recordings and the thread's verification.
    @inline(never)
    private static func observe<Value>(
        _ frame: Frame, returning value: Value, lookup: Route?, on thread: ThreadState
    ) {
        // Copied only when something looks: a frame's copy retains every reference it holds.
        let active = active
        guard active || thread.verification != nil else { return }
        let parent = thread.frames.last
        if active {
            let node = Injections.DependencyGraph.Node(
                key: Failure.name(of: frame), scope: (frame.scope ?? .unique).name,
                overridden: frame.servedByOverride)
            let event = Injections.TraceEvent.resolved(
                key: node.key, scope: node.scope, built: frame.built || frame.helperCount == 0,
                overridden: frame.servedByOverride, depth: frame.depth - 1)
            for sinks in sinks(in: frame.layer) {
                sinks.recorder?.add(node, from: parent.map(Failure.name(of:)))
                sinks.tracer?(event)
            }
        }
        guard let verification = thread.verification else { return }
        // Looked into for a key's getter (not an override) in a layer, where checks resolve.
        let holdsObject = if case .layered? = lookup { classInstance(value) != nil } else { false }
        verification.resolved(frame, parent: parent, holdsObject: holdsObject)
    }

    /// Drops what was started in the layer with `serial`, which ends: nothing resolves in it
    /// any more.
    static func layerEnded(_ serial: UInt64) {
        guard active else { return }
        update(serial) { $0 = Sinks() }
    }

    /// Starts or stops a trace or recording in the layer with `serial` (`nil`: outside any
    /// layer).
    ///
    /// - Returns: What was started there before, released after the lock, since a tracer may
    ///   capture anything.
    @discardableResult
    static func update(_ serial: UInt64?, _ change: (inout Sinks) -> Void) -> Sinks {
        lock.withLock {
            let old = started[serial] ?? Sinks()
            var sinks = old
            change(&sinks)
            started[serial] = sinks.isEmpty ? nil : sinks
            isOn.storeReleasing(started.isEmpty ? 0 : 1)
            // A layer's own trace needs no detour: its layer keeps one while it lives.
            if serial == nil, sinks.isEmpty != old.isEmpty {
                isGlobal.storeReleasing(sinks.isEmpty ? 0 : 1)
                if sinks.isEmpty { MemoTable.endDetour() } else { MemoTable.beginDetour() }
            }
            return old
        }
    }

    /// The sinks that see a resolution in `layer`: the global ones, and those of `layer` and
    /// the layers it is nested in.
    private static func sinks(in layer: OverrideRegistry?) -> [Sinks] {
        lock.withLock {
            let global = started[nil].map { [$0] } ?? []
            // The layer's chain is walked only while a layer has a trace or recording of its own.
            guard let layer, started.count > global.count else { return global }
            return global + layer.chain.compactMap { $0.isLayer ? started[$0.serial] : nil }
        }
    }

    /// The hook at a failure that stops the process (`Failure.stop`): reports a cycle's chain
    /// (`names`) to the traces, and on a thread that `Injections.verify` runs, reports the
    /// message there and parks the thread for good instead: a getter cannot be unwound, but it
    /// need not go on.
    static func stopping(_ message: String, cycle names: [String]?) {
        if let names, active {
            for sinks in sinks(in: Layers.current) { sinks.tracer?(.cycle(names)) }
        }
        if let verification = ThreadState.current.verification, verification.parksOnStop {
            verification.stop(message, isCycle: names != nil)
        }
    }
}

final class GraphRecorder: @unchecked Sendable {
    // @unchecked: `nodes`, `order` and `edges` are guarded by `lock`.
    private let lock = Lock(rank: .recording)
    private var nodes: [String: Injections.DependencyGraph.Node] = [:]
    private var order: [String] = []
    private var edges: [Injections.DependencyGraph.Edge] = []
    private var seenEdges: Set<Injections.DependencyGraph.Edge> = []

    func add(_ node: Injections.DependencyGraph.Node, from parent: String?) {
        lock.withLock {
            if nodes[node.key] == nil { order.append(node.key) }
            if nodes[node.key]?.overridden != true { nodes[node.key] = node }
            if let parent {
                let edge = Injections.DependencyGraph.Edge(from: parent, to: node.key)
                if seenEdges.insert(edge).inserted { edges.append(edge) }
            }
        }
    }

    var graph: Injections.DependencyGraph {
        lock.withLock {
            Injections.DependencyGraph(nodes: order.compactMap { nodes[$0] }, edges: edges)
        }
    }
}
