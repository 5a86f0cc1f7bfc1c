/// One keypath resolution in progress on a thread.
@usableFromInline
struct Frame {
    let keyPath: AnyKeyPath
    /// Identifies the `Injections` value handed to this frame's getter.
    let token: UInt64
    let valueType: Any.Type
    /// The thread's resolution depth this frame's resolution runs at (1 for the outermost).
    let depth: Int
    /// The task-local layer resolutions in this frame use, where its helpers keep their
    /// instances; `nil` for the global registry.
    // NB: unowned(unsafe): the layer's task-local binding holds it for as long as the frame is
    // open, and frames are pushed and popped on every framed resolution.
    unowned(unsafe) let layer: OverrideRegistry?
    /// The override whose factory, rather than the keypath's getter, builds this frame's value.
    // NB: unowned(unsafe): the resolution that opened the frame holds the override until the
    // frame is closed.
    unowned(unsafe) let override: AnyOverride?
    /// The registration's name, learned from a helper or a nested `resolve` in its getter.
    var name: StaticString?
    /// The scope entry of the last helper called directly for this frame, and how many.
    var helperEntry: Entry?
    var helperCount = 0
    /// How many of this frame's helpers are running their factories: a helper called while
    /// one runs is nested in it (`cached(A(b: shared(B())))`); otherwise the getter calls
    /// helpers one after another, which one key cannot be served from.
    var helpersRunning = 0
    /// The scope of the frame's helper, for diagnostics (`nil`: no helper, unique).
    var scope: Injections.Scope?
    /// Whether the frame's helper built its instance (rather than reusing a cached one).
    var built = false
    /// What the getter resolved outside its helper (`let api = resolve(\.api); return
    /// cached(Service(api))`), if anything: the helper's entry records it as its own
    /// dependencies when it builds. Made on first use: most getters resolve nothing there.
    var pending: PendingReads?

    /// ``pending``, made if there is none: call before the read it is to record.
    var pendingReads: PendingReads {
        mutating get {
            if let pending { return pending }
            let made = PendingReads()
            pending = made
            return made
        }
    }

    /// Whether an override's factory, not the keypath's getter, is building this frame's value.
    var servedByOverride: Bool { override != nil }

    /// Whether the getter is running outside its helpers, so that what it resolves now is
    /// recorded as pending rather than as a dependency of a build in progress.
    var isOutsideHelpers: Bool { helpersRunning == 0 }
}

/// A key a getter resolved outside its helper, with the override registries (by serial
/// number) whose changes of the key's override, and of its type's, can change what it got.
struct PendingKey {
    let key: AnyKeyPath
    let type: ObjectIdentifier
    let keyRegistries: [UInt64]
    let typeRegistries: [UInt64]
}

/// What a getter resolved outside its helper: keys, each with the override registries it was
/// decided in, and scope entries read, each noted before it was read (the registries' change
/// counts, the entry's epoch), so that the helper's build can tell exactly whether any of them
/// changed before its edges were recorded. Only its frame's thread touches it.
final class PendingReads {
    var keys: [PendingKey] = []
    var entries: [(entry: Entry, epoch: UInt64)] = []
    /// Each registry consulted, with its change count before the first lookup in it.
    var registries: [(registry: OverrideRegistry, changes: UInt64)] = []

    /// Notes `registry`'s change count, before a lookup in it, unless noted already.
    func note(_ registry: OverrideRegistry) {
        guard !registries.contains(where: { $0.registry === registry }) else { return }
        registries.append((registry, registry.changeCount))
    }

    /// Whether nothing read has changed since it was noted: no registry consulted has
    /// changed, and no entry read was dropped. Call after the reads' edges are recorded.
    var isCurrent: Bool {
        registries.allSatisfy { $0.registry.changeCount == $0.changes }
            && entries.allSatisfy { $0.entry.currentEpoch == $0.epoch }
    }

}
