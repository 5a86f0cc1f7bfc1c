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
    // What the getter's helpers and nested resolutions report, written only through
    // `FrameHandle` (below), and `pending` also by `ThreadState.noteEntryRead` and
    // `forEachPendingReads` (below).
    /// The registration's name, learned from a helper or a nested `resolve` in its getter.
    fileprivate(set) var name: StaticString?
    /// The scope entry of the last helper called directly for this frame, and how many.
    fileprivate(set) var helperEntry: Entry?
    fileprivate(set) var helperCount = 0
    /// How many of this frame's helpers are running their factories: a helper called while
    /// one runs is nested in it (`cached(A(b: shared(B())))`); otherwise the getter calls
    /// helpers one after another, which one key cannot be served from.
    fileprivate(set) var helpersRunning = 0
    /// The scope of the frame's helper, for diagnostics (`nil`: no helper, unique).
    fileprivate(set) var scope: Injections.Scope?
    /// Whether the frame's helper built its instance (rather than reusing a cached one).
    fileprivate(set) var built = false
    /// Whether the frame's override resolved its own key, for the value it replaces: what it
    /// builds on that value was decorated as that value was built, and is not decorated again.
    fileprivate(set) var resolvedReplacedValue = false
    /// What the getter resolved outside its helper (`let api = resolve(\.api); return
    /// cached(Service(api))`), if anything: the helper's entry records it as its own
    /// dependencies when it builds. Made on first use: most getters resolve nothing there.
    fileprivate(set) var pending: PendingReads?

    init(
        keyPath: AnyKeyPath, token: UInt64, valueType: Any.Type, depth: Int,
        layer: OverrideRegistry?, override: AnyOverride?
    ) {
        self.keyPath = keyPath
        self.token = token
        self.valueType = valueType
        self.depth = depth
        self.layer = layer
        self.override = override
    }

    /// ``pending``, made if there is none: call before the read it is to record.
    fileprivate var pendingReads: PendingReads {
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

/// An open frame, as the resolution's getter and its scope helpers see it, found by token or as
/// the innermost resolution (`Internal/README.md`, "Frame"). Valid while the frame is open, on
/// its own thread.
struct FrameHandle {
    // NB: unmanaged: a handle lives inside the call that found it, on the thread whose state
    // it names, which the thread keeps for its lifetime; reads through a guaranteed reference
    // index the frame in place, where a copied or unowned one would copy the frame.
    private let state: Unmanaged<ThreadState>
    let index: Int

    init(thread: ThreadState, index: Int) {
        state = .passUnretained(thread)
        self.index = index
    }

    @inline(__always)
    private func withFrame<Result>(_ body: (inout Frame) -> Result) -> Result {
        state._withUnsafeGuaranteedRef { body(&$0.frames[index]) }
    }

    var keyPath: AnyKeyPath { withFrame { $0.keyPath } }
    var valueType: Any.Type { withFrame { $0.valueType } }
    var layer: OverrideRegistry? { withFrame { $0.layer } }
    var override: AnyOverride? { withFrame { $0.override } }
    var pending: PendingReads? { withFrame { $0.pending } }
    var resolvedReplacedValue: Bool { withFrame { $0.resolvedReplacedValue } }

    /// Names the frame's registration, unless something named it first: its first helper's
    /// function, or the caller of a resolution nested in its getter.
    func learnName(_ name: StaticString) {
        withFrame { if $0.name == nil { $0.name = name } }
    }

    /// A helper of `scope`, at `site`, was called for this frame. A getter calls one helper
    /// (others nested in its factory): a second one called after the first returned stops.
    func helperCalled(in scope: Injections.Scope, at site: Site) {
        withFrame {
            if $0.helperCount > 0, $0.helpersRunning == 0 {
                Failure.helpersInSequence($0, site: site)
            }
            $0.helperCount += 1
            $0.scope = scope
        }
    }

    /// The entry the frame's helper reads or builds.
    func helperFound(_ entry: Entry) { withFrame { $0.helperEntry = entry } }

    /// The frame's helper builds its instance, rather than reusing a cached one.
    func helperBuilds() { withFrame { $0.built = true } }

    /// The frame's override resolves its own key, for the value it replaces.
    func replacedValueResolved() { withFrame { $0.resolvedReplacedValue = true } }

    /// Runs a helper's factory, counted on the frame (see ``Frame/helpersRunning``). The frame
    /// is not held while the factory runs: its resolutions push frames, which may move it.
    func runHelper<Value>(_ make: () -> Value) -> Value {
        withFrame { $0.helpersRunning += 1 }
        defer { withFrame { $0.helpersRunning -= 1 } }
        return make()
    }
}

extension ThreadState {
    /// The open frame whose getter received the `Injections` value with `token`, if any.
    @inline(__always)
    func frame(for token: UInt64) -> FrameHandle? {
        // The token's low 16 bits are its frame's index plus one (see `makeToken`).
        let index = Int(truncatingIfNeeded: token & 0xFFFF) - 1
        guard index >= 0, index < frames.count, frames[index].token == token else { return nil }
        return FrameHandle(thread: self, index: index)
    }

    /// The innermost resolution's frame; none when that resolution is a plain getter's, which
    /// runs without one.
    var innermostResolution: FrameHandle? {
        guard let index = frames.indices.last, frames[index].depth == depth else { return nil }
        return FrameHandle(thread: self, index: index)
    }

    /// Notes `entry`'s epoch, before it is read, in every frame a read from the frame at
    /// `index` flows into (see ``forEachPendingReads(fromFrameAt:_:)``).
    func noteEntryRead(_ entry: Entry, fromFrameAt index: Int) {
        guard index >= 0, frames[index].isOutsideHelpers else { return }
        let epoch = entry.currentEpoch
        forEachPendingReads(fromFrameAt: index) { $0.entries.append((entry, epoch)) }
    }

    /// Calls `body` with the pending reads of every open frame a read made now, from the frame
    /// at `index`, flows into: from that frame outwards, each whose getter runs outside its
    /// helpers (its value may be built from the read), up to the first whose helper is
    /// building (that build records the read itself). Each made, if need be, before the read.
    func forEachPendingReads(fromFrameAt index: Int, _ body: (PendingReads) -> Void) {
        var index = index
        while index >= 0, frames[index].isOutsideHelpers {
            body(frames[index].pendingReads)
            index -= 1
        }
    }
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
