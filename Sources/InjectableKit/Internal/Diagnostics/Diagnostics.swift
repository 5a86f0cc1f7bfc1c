import CInjectableAtomics

/// What watches resolutions (`Internal/README.md`, "Process-wide state"): a trace or recording
/// on raises the detours count, so that every resolution takes the framed path and its frames.
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

    // Guarded by `lock`: by the serial (never reused) of the layer it was started in, which
    // sees that layer's and its nested layers' resolutions; `nil`: outside any layer.
    nonisolated(unsafe) static var started: [UInt64?: Sinks] = [:]

    /// Whether a trace or recording is on anywhere: finished frames are reported.
    private static var active: Bool { isOn.boolAcquiring }

    /// At a detour, for a resolution outside any layer (one in a layer takes a frame anyway):
    /// whether a trace or recording started outside any layer is on.
    @inline(__always)
    static func observes(_ keyPath: AnyKeyPath) -> Bool {
        // Tests run in their layers: one resolving outside any may have left a test's task.
        if TestLayers.isWatching { TestLayers.check(keyPath) }
        return isGlobal.boolAcquiring
    }

    /// Before the depth is let go of (`lookup` `nil`: an override's); watchers keep a detour on.
    /// A key's name is learned only on routes that take a frame now and then, not every time.
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
                key: Failure.name(of: frame),
                scope: frame.scope?.name ?? Injections.Scope.unique.name,
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

    /// The layer with `serial` ends: nothing resolves in it any more.
    static func layerEnded(_ serial: UInt64) {
        guard active else { return }
        update(serial) { $0 = Sinks() }
    }

    /// `serial` `nil`: outside any layer. Returns the old sinks, to release after the lock
    /// (a tracer may capture anything).
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

    /// The global sinks, and those of `layer` and the layers it is nested in.
    private static func sinks(in layer: OverrideRegistry?) -> [Sinks] {
        lock.withLock {
            let global = started[nil].map { [$0] } ?? []
            // The layer's chain is walked only while a layer has a trace or recording of its own.
            guard let layer, started.count > global.count else { return global }
            return global + layer.chain.compactMap { $0.isLayer ? started[$0.serial] : nil }
        }
    }

    /// Before `Failure.stop`: reports a cycle to the traces, and a verification's thread parks
    /// for good instead (README, "Failures, key names and verification").
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
