import CInjectableAtomics

/// One asynchronous construction in progress, named after its registration.
final class AsyncBuild: @unchecked Sendable {
    // @unchecked: `finishedWord` is read and written only atomically (as `isFinished`),
    // `awaiting` only under `lock`; the other properties are immutable.
    /// `isFinished`'s word, first among the stored properties so that its address is a fixed
    /// offset in the object (see `AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private var finishedWord: UInt = 0
    let name: String
    /// Orders constructions by when they started, so that a cycle is reported from the first.
    let serial: Int
    /// The construction that awaited this one first, if any.
    let parent: AsyncBuild?
    /// How deep this construction nests (1: awaited by no construction), and how many of those
    /// nested constructions, this one included, are of wrappers no scope made.
    let depth: Int
    let unscopedDepth: Int
    /// The constructions this one's task awaits (several, with `async let`).
    @exclusivity(unchecked) private var awaiting: [AsyncBuild] = []
    private let lock = Lock(rank: .leaf)
    /// Set once the construction has returned or thrown. Tasks it started with `Task { }` still
    /// carry it as their `current`, but can no longer hold it up.
    private var isFinished: AtomicWord { AtomicWord(inline: 0, of: self) }

    /// Constructions of wrappers no scope made, nested deeper than this, can only be an
    /// unbounded recursion: a cycle through registrations that make a new wrapper on each
    /// resolution. A cycle through a wrapper a scope made meets that wrapper again, and
    /// `beginWait(by:)` reports it, so these constructions are not counted.
    static let unscopedDepthLimit = 256
    /// Constructions of any kind nested deeper than this: an unbounded recursion through ever
    /// new keys, which no cycle check catches (a key with an argument whose construction awaits
    /// the next argument's). Each level holds a suspended task, not a thread's stack.
    static let depthLimit = 10_000

    /// - Parameters:
    ///   - name: The registration, for messages.
    ///   - parent: The construction whose task awaits this one first, if any.
    ///   - scoped: Whether a scope made the wrapper (it was made while a scope built its
    ///     instance), so that resolving its key again while it builds returns it again.
    init(name: String, parent: AsyncBuild?, scoped: Bool) {
        self.name = name
        self.parent = parent
        self.depth = (parent?.depth ?? 0) + 1
        self.unscopedDepth = (parent?.unscopedDepth ?? 0) + (scoped ? 0 : 1)
        self.serial = Int(truncatingIfNeeded: nextSerial(IK_ASYNC_BUILDS_STARTED))
        assert(unscopedDepth <= depth, "InjectableKit: more unscoped constructions than nested")
        if unscopedDepth > Self.unscopedDepthLimit { Failure.asyncTooDeep(self) }
        if depth > Self.depthLimit { Failure.asyncRecursion(self) }
        AtomicWord.checkInlineWords(&finishedWord, of: self)
    }

    func finish() {
        isFinished.storeReleasing(1)
    }

    /// The construction the current task runs, if it runs one.
    @TaskLocal static var current: AsyncBuild?

    /// Records that `waiter` awaits `self`, stopping the process if `self` (through what it
    /// awaits) awaits `waiter`: the asynchronous counterpart of `ThreadState.wait(for:on:)`.
    /// Each wait is published before the search, which holds one construction's lock at a
    /// time, so of two constructions that start to await each other, one finds the circle.
    func beginWait(by waiter: AsyncBuild?) {
        guard let waiter, !waiter.isFinished.boolAcquiring else { return }
        waiter.lock.withLock { waiter.awaiting.append(self) }
        guard let path = path(to: waiter) else { return }
        // `path` ends with `waiter`: the circle is `path`, reported from its oldest.
        let first = path.indices.min { path[$0].serial < path[$1].serial } ?? 0
        let circle = Array(path[first...] + path[..<first])
        Failure.asyncCycle(circle + [circle[0]])
    }

    /// Removes the record ``beginWait(by:)`` made.
    func endWait(by waiter: AsyncBuild?) {
        guard let waiter else { return }
        waiter.lock.withLock {
            if let index = waiter.awaiting.firstIndex(where: { $0 === self }) {
                waiter.awaiting.remove(at: index)
            }
        }
    }

    /// The constructions from `self` to `end` along the waits recorded, both included.
    private func path(to end: AsyncBuild) -> [AsyncBuild]? {
        var visited: Set<ObjectIdentifier> = []
        func search(_ node: AsyncBuild) -> [AsyncBuild]? {
            if node === end { return [node] }
            // A finished construction waits for nothing (a task it left running may).
            guard visited.insert(ObjectIdentifier(node)).inserted, !node.isFinished.boolAcquiring
            else {
                return nil
            }
            for next in node.lock.withLock({ node.awaiting }) {
                if let rest = search(next) { return [node] + rest }
            }
            return nil
        }
        return search(self)
    }
}
