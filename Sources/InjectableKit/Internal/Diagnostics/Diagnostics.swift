import CInjectableAtomics

/// The opt-in trace and graph recording. While neither is on, resolution never looks here: the
/// fast path checks one counter it reads anyway (`MemoTable.detours`), which turning
/// diagnostics on raises so that every resolution takes the framed path, where frames say who
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

    // Guarded by `lock`: what was started outside any layer, which sees every resolution.
    nonisolated(unsafe) private static var global = Sinks()
    // Guarded by `lock`: what was started in a layer, by the layer's serial (never reused),
    // which sees that layer's resolutions and its nested layers'.
    nonisolated(unsafe) static var byLayer: [UInt64: Sinks] = [:]

    /// Whether a trace or recording is on anywhere: finished frames are reported.
    static var active: Bool { isOn.boolAcquiring }

    /// Whether one started outside any layer is on: every resolution takes a frame, so that it
    /// is reported. (Resolutions in a layer take frames anyway.)
    static var observesAll: Bool { isGlobal.boolAcquiring }

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
            let old = serial.map { byLayer[$0] ?? Sinks() } ?? global
            var sinks = old
            change(&sinks)
            if let serial {
                byLayer[serial] = sinks.isEmpty ? nil : sinks
            } else {
                global = sinks
            }
            isOn.storeReleasing(!global.isEmpty || !byLayer.isEmpty ? 1 : 0)
            // A layer's own trace needs no detour: its layer keeps one while it lives.
            if serial == nil, sinks.isEmpty != old.isEmpty {
                isGlobal.storeReleasing(sinks.isEmpty ? 0 : 1)
                if sinks.isEmpty { MemoTable.endDetour() } else { MemoTable.beginDetour() }
            }
            return old
        }
    }

    /// The sinks that see a resolution in `layer`: the global ones, and those of `layer` and
    /// the layers it is nested in. Call with `lock` locked.
    private static func sinks(in layer: OverrideRegistry?) -> [Sinks] {
        guard !byLayer.isEmpty, let layer else { return [global] }
        return [global] + layer.chain.compactMap { $0.isLayer ? byLayer[$0.serial] : nil }
    }

    static func resolved(_ frame: Frame, parent: Frame?) {
        let node = Injections.DependencyGraph.Node(
            key: Failure.name(of: frame), scope: frame.scope?.name ?? "unique",
            overridden: frame.servedByOverride)
        let event = Injections.TraceEvent.resolved(
            key: node.key, scope: node.scope, built: frame.built || frame.helperCount == 0,
            overridden: frame.servedByOverride, depth: frame.depth - 1)
        let found = lock.withLock { sinks(in: frame.layer) }
        for sinks in found {
            sinks.recorder?.add(node, from: parent.map(Failure.name(of:)))
            sinks.tracer?(event)
        }
    }

    static func cycle(_ names: [String]) {
        let layer = Layers.current
        let found = lock.withLock { sinks(in: layer) }
        for tracer in found.compactMap(\.tracer) {
            tracer(.cycle(names))
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
