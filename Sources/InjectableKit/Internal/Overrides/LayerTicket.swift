/// The layer a lazy wrapper was made in, for its first read (README, "Layers captured by
/// wrappers").
final class LayerTicket: LazyHeld, @unchecked Sendable {
    // @unchecked: `live`, `overrides` and `revived` are guarded by `lock`; `beneath` is immutable.
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

    /// The layer, or, once it is gone, the one made in its place.
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

    /// With no layer anywhere, reads only the detours count, which the fast path reads anyway.
    @inline(__always)
    static var current: LayerTicket? {
        guard MemoTable.hasDetours, let layer = Layers.current else { return nil }
        return layer.ticket
    }

    /// Runs `resolve` in `ticket`'s layer, or, for `nil`, where it is called.
    static func run<Result>(in ticket: LayerTicket?, _ resolve: () -> Result) -> Result {
        guard let ticket else { return resolve() }
        Sealing.refuseIfSealed("a lazy wrapper's first read in a layer made before seal()")
        return Layers.with(ticket.layer, resolve)
    }

    /// Called by the layer under its lock; the copy let go of here is never the last (the
    /// registry releases the old overrides after its lock).
    func update(_ overrides: Overrides) {
        lock.withLock { self.overrides = overrides }
    }
}
