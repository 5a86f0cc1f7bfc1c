import CInjectableAtomics

/// One asynchronous construction in progress, named after its registration.
final class AsyncBuild: @unchecked Sendable {
    // @unchecked: `finishedWord` is atomic, `awaiting` under `lock`, the rest immutable.
    /// First among the stored properties, at a fixed offset (`AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private var finishedWord: UInt = 0
    let name: String
    /// Orders constructions by when they started, so that a cycle is reported from the first.
    let serial: Int
    let parent: AsyncBuild?
    let depth: Int
    let unscopedDepth: Int
    /// The constructions this one's task awaits (several, with `async let`).
    @exclusivity(unchecked) private var awaiting: [AsyncBuild] = []
    private let lock = Lock(rank: .leaf)
    /// Set once returned or thrown: tasks it started still carry it, but hold it up no more.
    private var isFinished: AtomicWord { AtomicWord(inline: 0, of: self) }

    /// `Internal/README.md`, "Asynchronous constructions", cycles and depth 3 and 4.
    static let unscopedDepthLimit = 256
    static let depthLimit = 10_000

    /// `scoped`: a scope made the wrapper (README, "Asynchronous constructions", cycles 2).
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

    /// Records that `waiter` awaits `self`, and stops on a circle back to `waiter` (README,
    /// "Asynchronous constructions", cycles 1).
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
