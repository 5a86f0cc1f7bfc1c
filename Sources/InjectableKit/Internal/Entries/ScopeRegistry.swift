/// Every scope made so far, held weakly, so that `Scope.resetAll` and override invalidation can
/// reach them all.
final class ScopeRegistry: @unchecked Sendable {
    // @unchecked: `scopes` is guarded by `lock`.
    private struct WeakScope {
        weak var scope: Injections.Scope?
    }

    private let lock = Lock(rank: .leaf)
    private var scopes: [WeakScope] = []

    func add(_ scope: Injections.Scope) {
        lock.withLock {
            scopes.removeAll { $0.scope == nil }
            scopes.append(WeakScope(scope: scope))
        }
    }

    var all: [Injections.Scope] {
        lock.withLock { scopes.compactMap(\.scope) }
    }
}
