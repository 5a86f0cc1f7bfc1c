/// Gives the global container to one `.globalInjections` test case at a time, across suites:
/// `.serialized` orders the tests of one suite, while `push()` and `pop()` share one stack for
/// the whole process, so two suites' tests run at once would pop each other's overrides.
///
/// States: *free*, or *held* by one test case with others *waiting* in arrival order.
/// Invariant: `isHeld` is false only while `waiting` is empty.
actor GlobalContainerTurn {
    static let shared = GlobalContainerTurn()

    /// Whether the current task holds the turn: a test case nested in another's scope (a
    /// suite and its test both marked) runs in the turn it already has.
    @TaskLocal static var isHolding = false

    private var isHeld = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `operation` once it is this task's turn.
    static func run(_ operation: () async throws -> Void) async rethrows {
        guard !isHolding else { return try await operation() }
        await shared.take()
        do {
            try await $isHolding.withValue(true) { try await operation() }
        } catch {
            await shared.give()
            throw error
        }
        await shared.give()
    }

    private func take() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
        assert(isHeld, "InjectableKit: a waiting test case was handed a free turn")
    }

    private func give() {
        assert(isHeld, "InjectableKit: a turn given back that no test case held")
        if waiting.isEmpty {
            isHeld = false
        } else {
            // Handed over without becoming free: `isHeld` stays true for the next one.
            waiting.removeFirst().resume()
        }
        assert(isHeld || waiting.isEmpty)
    }
}
