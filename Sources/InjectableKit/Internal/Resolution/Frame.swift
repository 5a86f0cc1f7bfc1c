/// One keypath resolution in progress on a thread.
struct Frame {
    let keyPath: AnyKeyPath
    /// Identifies the `Injections` value handed to this frame's getter.
    let token: UInt64
    let valueType: Any.Type
    /// The thread's resolution depth this frame's resolution runs at (1 for the outermost).
    let depth: Int
    /// The layer its resolutions use and its helpers keep instances in (`nil`: none).
    // NB: unowned(unsafe), no retain per framed resolution: the layer's binding holds it.
    unowned(unsafe) let layer: OverrideRegistry?
    /// The override whose factory, rather than the keypath's getter, builds this frame's value.
    // NB: unowned(unsafe): the resolution that opened the frame holds it until the frame closes.
    unowned(unsafe) let override: AnyOverride?
    // Written only by `FrameHandle` and the pending reads' functions below (README, "Objects").
    /// The registration's name, learned from a helper or a nested `resolve` in its getter.
    fileprivate(set) var name: StaticString?
    /// The scope entry of the last helper called directly for this frame, and how many.
    fileprivate(set) var helperEntry: Entry?
    fileprivate(set) var helperCount = 0
    /// Helpers running their factories: one called meanwhile nests (`cached(A(b: shared(B())))`),
    /// one called after another returned follows it, which one key cannot be served from.
    fileprivate(set) var helpersRunning = 0
    /// The scope of the frame's helper, for diagnostics (`nil`: no helper, unique).
    fileprivate(set) var scope: Injections.Scope.Summary?
    /// Whether the frame's helper built its instance (rather than reusing a cached one).
    fileprivate(set) var built = false
    /// Whether the override resolved its own key: that value was decorated as it was built.
    fileprivate(set) var resolvedReplacedValue = false
    /// What the getter resolved outside its helper (README, "Dependency edges" 4): its part of
    /// the record its run of frames outside helpers shares. Joined at the first read: most
    /// getters resolve nothing there. (A reference: a frame is copied as it ends.)
    fileprivate(set) var pending: PendingReads.View?

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

    var servedByOverride: Bool { override != nil }

    /// While true, what the getter resolves is pending, not a dependency of a build.
    var isOutsideHelpers: Bool { helpersRunning == 0 }
}

/// An open frame, as its getter and helpers see it (`Internal/README.md`, "Objects", Frame).
/// Valid while the frame is open, on its own thread.
struct FrameHandle {
    // NB: unmanaged: the thread keeps its state; a guaranteed reference indexes the frame in
    // place, where a copied or unowned one would copy the frame.
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

    /// A read: no uniqueness check of the frames' buffer, as an in-place write makes.
    @inline(__always)
    private func read<Result>(_ field: (borrowing Frame) -> Result) -> Result {
        state._withUnsafeGuaranteedRef { field($0.frames[index]) }
    }

    var keyPath: AnyKeyPath { read { $0.keyPath } }
    var valueType: Any.Type { read { $0.valueType } }
    var layer: OverrideRegistry? { read { $0.layer } }
    var override: AnyOverride? { read { $0.override } }
    var pending: PendingReads.View? { read { $0.pending } }
    var resolvedReplacedValue: Bool { read { $0.resolvedReplacedValue } }

    /// Unless named first: by its first helper, or the caller of a resolution in its getter.
    func learnName(_ name: StaticString) {
        withFrame { if $0.name == nil { $0.name = name } }
    }

    /// A getter calls one helper (others nest in its factory): one after another stops.
    func helperCalled(in scope: Injections.Scope, at site: Site) {
        withFrame {
            if $0.helperCount > 0, $0.helpersRunning == 0 {
                Failure.helpersInSequence($0, site: site)
            }
            if $0.helperCount == 0 { $0.pending?.end() }
            $0.helperCount += 1
            $0.scope = scope.summary
        }
    }

    func helperFound(_ entry: Entry) { withFrame { $0.helperEntry = entry } }

    func replacedValueResolved() { withFrame { $0.resolvedReplacedValue = true } }

    /// The frame is not held while the factory runs: its resolutions push frames, which move it.
    /// `builds`: the helper builds its instance, rather than reusing a cached one.
    func runHelper<Value>(builds: Bool, _ make: () -> Value) -> Value {
        withFrame {
            if builds { $0.built = true }
            $0.helpersRunning += 1
        }
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

    /// None when the innermost resolution is a plain getter's, which runs without a frame.
    var innermostResolution: FrameHandle? {
        guard let index = frames.indices.last, frames[index].depth == depth else { return nil }
        return FrameHandle(thread: self, index: index)
    }

    /// Notes `entry`'s epoch, before it is read, where ``withPendingReads`` reaches.
    func noteEntryRead(_ entry: Entry, fromFrameAt index: Int) {
        guard index >= 0, frames[index].isOutsideHelpers else { return }
        let epoch = entry.currentEpoch
        withPendingReads(fromFrameAt: index) { reads, _ in reads.entries.append((entry, epoch)) }
    }

    /// Calls `body` with the record of the frames a read from `index` flows into: outwards, up
    /// to one whose helper builds (its build records the read); and with where that frame's
    /// reads begin. Call before the read.
    ///
    /// Those frames, a run outside their helpers, share one record, each from where it joined
    /// (what each would have noted alone), so that a read is noted once, not once per frame:
    /// a run of getters without helpers nests as deep as a graph built anew.
    func withPendingReads(fromFrameAt index: Int, _ body: (PendingReads, PendingReads.Mark) -> Void)
    {
        guard index >= 0, frames[index].isOutsideHelpers else { return }
        if frames[index].pending == nil {
            // The run's frames that have not joined yet are the innermost ones.
            var first = index
            while first > 0, frames[first - 1].isOutsideHelpers, frames[first - 1].pending == nil {
                first -= 1
            }
            let outer =
                first > 0 && frames[first - 1].isOutsideHelpers ? frames[first - 1].pending : nil
            let reads = outer?.reads ?? PendingReads()
            let mark = reads.mark
            for joining in first...index {
                frames[joining].pending = PendingReads.View(reads: reads, from: mark)
            }
        }
        let view = frames[index].pending.unsafelyUnwrapped
        body(view.reads, view.from)
    }
}

/// With the registries (serials) whose key or type overrides can change what the getter got.
struct PendingKey {
    let key: AnyKeyPath
    let type: ObjectIdentifier
    let keyRegistries: [UInt64]
    let typeRegistries: [UInt64]
}

/// What a getter resolved outside its helper (`Internal/README.md`, "Dependency edges" 4).
/// Only its frame's thread touches it.
final class PendingReads {
    // NB: @exclusivity(unchecked): only its frames' thread touches it, and the run-time check
    // costs a thread-local look-up at each read noted.
    @exclusivity(unchecked) var keys: [PendingKey] = []
    @exclusivity(unchecked) var entries: [(entry: Entry, epoch: UInt64)] = []
    /// Each registry consulted, with its change count before the first lookup in it.
    @exclusivity(unchecked) var registries: [(registry: OverrideRegistry, changes: UInt64)] = []

    /// Where a frame's reads begin.
    struct Mark {
        var keys = 0
        var entries = 0
        var registries = 0
    }

    var mark: Mark { Mark(keys: keys.count, entries: entries.count, registries: registries.count) }

    /// Notes `registry`'s change count, unless noted since `mark`. An outer frame may so hold
    /// one registry twice; counts only grow, so its first count decides, as if noted once.
    func note(_ registry: OverrideRegistry, since mark: Mark) {
        guard !registries[mark.registries...].contains(where: { $0.registry === registry }) else {
            return
        }
        registries.append((registry, registry.changeCount))
    }

    /// One frame's reads: those from its mark until its getter calls its helper (later ones,
    /// such as its helper's own entry, noted for the frames enclosing it, are not its own).
    final class View {
        let reads: PendingReads
        let from: Mark
        private var until: Mark?

        init(reads: PendingReads, from: Mark) {
            self.reads = reads
            self.from = from
        }

        /// The frame's getter called its helper: its reads end here.
        func end() {
            if until == nil { until = reads.mark }
        }

        private var to: Mark { until ?? reads.mark }
        var keys: ArraySlice<PendingKey> { reads.keys[from.keys..<to.keys] }
        var entries: ArraySlice<(entry: Entry, epoch: UInt64)> {
            reads.entries[from.entries..<to.entries]
        }

        /// Call after the reads' edges are recorded.
        var isCurrent: Bool {
            reads.registries[from.registries..<to.registries].allSatisfy {
                $0.registry.changeCount == $0.changes
            }
                && entries.allSatisfy { $0.entry.currentEpoch == $0.epoch }
        }
    }
}
