/// The override layer a lazily resolving wrapper was made in, so that its first read resolves
/// there, whenever and wherever it happens (see `Injections.withOverrides`).
///
/// A wrapper holds the layer's ticket, never the layer: the layer's caches may hold the
/// wrapper's owner (built by a scope, made later by a cached object, handed to an override),
/// and a strong reference would then keep the layer, and every resolution off the fast path,
/// for good. The ticket names the layer weakly and keeps a copy of its overrides: while the
/// layer lives, a read resolves in it; once it is gone, in the one layer the ticket makes with
/// the same overrides.
final class LayerTicket: LazyHeld, @unchecked Sendable {
    // @unchecked: `live`, `overrides` and `revived` are guarded by `lock`; `beneath` is
    // immutable.
    private let lock = Lock(rank: .layerTicket)
    private weak var live: OverrideRegistry?
    private var overrides: Overrides
    private let beneath: OverrideRegistry
    /// The layer made in the gone one's place, shared by every read after it.
    private var revived: OverrideRegistry?

    init(_ layer: OverrideRegistry, overrides: Overrides) {
        live = layer
        self.overrides = overrides
        beneath = layer.beneath!
    }

    /// The layer, or, once it is gone, one layer over the same registry with its last
    /// overrides, and caches of its own.
    var layer: OverrideRegistry {
        let (live, revived, overrides) = lock.withLock {
            (self.live, self.revived, self.overrides)
        }
        if let live = live ?? revived { return live }
        // Made outside the lock; when two threads race, the first one kept serves both.
        let made = OverrideRegistry(beneath: beneath, overrides: overrides)
        return lock.withLock {
            if let kept = self.revived { return kept }
            self.revived = made
            return made
        }
    }

    /// The ticket of the layer in effect for the current task; `nil` outside any layer. The
    /// fast path, with no layer anywhere, reads one counter it reads anyway.
    @inline(__always)
    static var current: LayerTicket? {
        guard MemoTable.hasDetours, let layer = Layers.current else { return nil }
        return layer.ticket
    }

    /// Runs `resolve` in the layer `ticket` names, or, for `nil` (made outside any layer),
    /// where it is called.
    static func run<Result>(in ticket: LayerTicket?, _ resolve: () -> Result) -> Result {
        guard let ticket else { return resolve() }
        Sealing.refuseIfSealed("a lazy wrapper's first read in a layer made before seal()")
        return Layers.with(ticket.layer, resolve)
    }

    /// Called by the layer, under its lock, whenever its overrides change.
    /// The copy let go of here is never the last: the registry releases the old overrides
    /// itself, after its lock.
    func update(_ overrides: Overrides) {
        lock.withLock { self.overrides = overrides }
    }
}
