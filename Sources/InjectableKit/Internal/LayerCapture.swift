import Synchronization

/// The override layer a lazily resolving wrapper was made in, so that its first read resolves
/// there, whenever and wherever it happens (see `Injections.withOverrides`).
///
/// A wrapper made by user code in a layer keeps the layer alive until its first read. A wrapper
/// made while a scope builds an instance in a layer must not: that scope's cache may hold the
/// wrapper's owner, and the layer would then keep itself alive for good. It keeps the layer's
/// ticket instead, which names the layer weakly and, once the layer is gone, its overrides;
/// a read after that resolves in a new layer with the same overrides.
struct LayerCapture: Sendable {
    private let layer: OverrideRegistry?
    private let ticket: LayerTicket?

    /// No layer: resolve in the global container, even if the read happens inside a layer.
    static let global = LayerCapture(layer: nil, ticket: nil)

    /// The layer in effect for the current task. The common path, with no layer anywhere,
    /// reads one counter it reads anyway.
    @inline(__always)
    static var current: LayerCapture {
        guard MemoTable.hasDetours, let layer = Layers.current else { return .global }
        return capture(layer)
    }

    @inline(never)
    private static func capture(_ layer: OverrideRegistry) -> LayerCapture {
        if ThreadState.current.buildStack.isEmpty {
            return LayerCapture(layer: layer, ticket: nil)
        }
        return LayerCapture(layer: nil, ticket: layer.ticket)
    }

    /// Runs `resolve` in the captured layer (or outside any layer, for `global`).
    func run<Result>(_ resolve: () -> Result) -> Result {
        if layer != nil || ticket != nil {
            Sealing.refuseIfSealed("a lazy wrapper's first read in a layer made before seal()")
        }
        if let layer { return Layers.with(layer, resolve) }
        if let ticket { return Layers.with(ticket.layer, resolve) }
        guard MemoTable.hasDetours, Layers.current != nil else { return resolve() }
        return Layers.with(nil, resolve)
    }
}

/// Names one layer weakly, and keeps a copy of its overrides, so that another like it can be
/// made once it is gone.
final class LayerTicket: @unchecked Sendable {
    // @unchecked: `live` and `overrides` are guarded by `lock`; `parent` is immutable.
    private let lock = Lock()
    private weak var live: OverrideRegistry?
    private var overrides: Overrides
    private let parent: OverrideRegistry?

    init(_ layer: OverrideRegistry, overrides: Overrides, parent: OverrideRegistry?) {
        live = layer
        self.overrides = overrides
        self.parent = parent
    }

    /// The layer, or, once it is gone, a new layer over its parent with its last overrides.
    var layer: OverrideRegistry {
        let (live, overrides) = lock.withLock { (self.live, self.overrides) }
        return live ?? OverrideRegistry(reviving: overrides, parent: parent)
    }

    /// Called by the layer, under its lock, whenever its overrides change.
    /// The copy let go of here is never the last: the registry releases the old overrides
    /// itself, after its lock.
    func update(_ overrides: Overrides) {
        lock.withLock { self.overrides = overrides }
    }
}
