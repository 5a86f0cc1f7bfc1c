import CInjectableAtomics

/// One asynchronous construction in progress, named after its registration.
final class AsyncBuild: @unchecked Sendable {
    // @unchecked: `finishedWord` is read and written only atomically (as `isFinished`); the
    // other properties are immutable.
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
    /// Set once the construction has returned or thrown. Tasks it started with `Task { }` still
    /// carry it as their `current`, but can no longer hold it up.
    private var isFinished: AtomicWord { AtomicWord(inline: 0, of: self) }

    /// Constructions of wrappers no scope made, nested deeper than this, can only be an
    /// unbounded recursion: a cycle through registrations that make a new wrapper on each
    /// resolution. A cycle through a wrapper a scope made meets that wrapper again, and
    /// `AsyncBuildGraph` reports it, so these constructions are not counted.
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

    var finished: Bool { isFinished.boolAcquiring }

    func finish() {
        isFinished.storeReleasing(1)
    }

    /// The construction the current task runs, if it runs one.
    @TaskLocal static var current: AsyncBuild?
}

/// Which asynchronous constructions await which, to catch a circle of them before it waits
/// forever: the asynchronous counterpart of `ThreadState.wait(for:on:)`.
final class AsyncBuildGraph: @unchecked Sendable {
    // @unchecked: `waits` is guarded by `lock`.
    static let shared = AsyncBuildGraph()

    private let lock = Lock()
    /// For each construction, the constructions it awaits (several, with `async let`).
    private var waits: [ObjectIdentifier: [AsyncBuild]] = [:]

    /// Records that `waiter` awaits `target`, stopping the process if `target` (through what it
    /// awaits) awaits `waiter`.
    func beginWait(_ waiter: AsyncBuild?, on target: AsyncBuild) {
        guard let waiter, !waiter.finished else { return }
        lock.withLock {
            if let path = path(from: target, to: waiter) {
                // `path` ends with `waiter`: the circle is `path`, reported from its oldest.
                let first = path.indices.min { path[$0].serial < path[$1].serial } ?? 0
                let circle = Array(path[first...] + path[..<first])
                Failure.asyncCycle(circle + [circle[0]])
            }
            waits[ObjectIdentifier(waiter), default: []].append(target)
        }
    }

    /// Removes the record `beginWait(_:on:)` made.
    func endWait(_ waiter: AsyncBuild?, on target: AsyncBuild) {
        guard let waiter else { return }
        lock.withLock {
            let id = ObjectIdentifier(waiter)
            guard var targets = waits[id], let index = targets.firstIndex(where: { $0 === target })
            else { return }
            targets.remove(at: index)
            waits[id] = targets.isEmpty ? nil : targets
        }
    }

    /// The constructions from `start` to `end` along recorded waits, both included.
    private func path(from start: AsyncBuild, to end: AsyncBuild) -> [AsyncBuild]? {
        var visited: Set<ObjectIdentifier> = []
        func search(_ node: AsyncBuild) -> [AsyncBuild]? {
            if node === end { return [node] }
            guard visited.insert(ObjectIdentifier(node)).inserted else { return nil }
            // A finished construction waits for nothing (a task it left running may).
            guard !node.finished else { return nil }
            for next in waits[ObjectIdentifier(node)] ?? [] {
                if let rest = search(next) { return [node] + rest }
            }
            return nil
        }
        return search(start)
    }
}
