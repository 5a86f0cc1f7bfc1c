import Synchronization

/// The opt-in trace and graph recording. While neither is on, resolution never looks here: the
/// fast path checks one counter it reads anyway (`MemoTable.detours`), which turning
/// diagnostics on raises so that every resolution takes the framed path, where frames say who
/// resolved what.
enum Diagnostics {
    private static let isOn = Atomic<Bool>(false)
    private static let lock = Lock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var tracer: (@Sendable (Injections.TraceEvent) -> Void)?
    // Guarded by `lock`.
    nonisolated(unsafe) private static var recorder: GraphRecorder?

    static var active: Bool { isOn.load(ordering: .acquiring) }

    static func setTracer(_ tracer: (@Sendable (Injections.TraceEvent) -> Void)?) {
        update { Self.tracer = tracer }
    }

    static func setRecording(_ recording: Bool) -> Injections.DependencyGraph {
        var graph = Injections.DependencyGraph(nodes: [], edges: [])
        update {
            graph = recorder?.graph ?? graph
            recorder = recording ? GraphRecorder() : nil
        }
        return graph
    }

    private static func update(_ change: () -> Void) {
        lock.withLock {
            let wasOn = tracer != nil || recorder != nil
            change()
            let on = tracer != nil || recorder != nil
            guard on != wasOn else { return }
            isOn.store(on, ordering: .releasing)
            if on { MemoTable.beginDetour() } else { MemoTable.endDetour() }
        }
    }

    /// Reports a finished resolution: `frame`, resolved from `parent` (nil at the top).
    static func resolved(_ frame: Frame, parent: Frame?) {
        let node = Injections.DependencyGraph.Node(
            key: Failure.name(of: frame), scope: frame.scope?.name ?? "unique",
            overridden: frame.servedByOverride)
        let event = Injections.TraceEvent(
            key: node.key, scope: node.scope, built: frame.built || frame.helperCount == 0,
            overridden: frame.servedByOverride, depth: frame.depth - 1, cycle: nil)
        let (currentTracer, currentRecorder) = lock.withLock { (tracer, recorder) }
        currentRecorder?.add(node, from: parent.map(Failure.name(of:)))
        currentTracer?(event)
    }

    /// Reports a dependency cycle to the trace, just before it stops the process.
    static func cycle(_ names: [String]) {
        let currentTracer = lock.withLock { tracer }
        currentTracer?(
            Injections.TraceEvent(
                key: names.first ?? "", scope: "", built: false, overridden: false, depth: 0,
                cycle: names))
    }
}

/// The nodes and edges recorded so far.
final class GraphRecorder: @unchecked Sendable {
    // @unchecked: `nodes`, `order` and `edges` are guarded by `lock`.
    private let lock = Lock()
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
