import CInjectableAtomics

/// The task-local override layer in effect (see `Injections.withOverrides`).
enum Layers {
    /// A layer put in effect: a detour while it lives (`Internal/README.md`, "Process-wide
    /// state"), held by the task-local value and so by every task started inside.
    final class Binding: Sendable {
        let layer: OverrideRegistry?

        init(_ layer: OverrideRegistry?) {
            self.layer = layer
            MemoTable.beginDetour(MemoTable.layerDetour)
        }

        deinit { MemoTable.endDetour(MemoTable.layerDetour) }
    }

    @TaskLocal private static var bound: Binding?

    /// Outside any task, only a ``with(_:_:)`` on this thread, which counts it, binds a layer:
    /// a thread-local read answers, so that a layer alive elsewhere costs code outside it little.
    static var current: OverrideRegistry? {
        @inline(__always) get {
            ik_thread_layers_get() != 0 || ik_in_task() != 0 ? boundLayer : nil
        }
    }

    /// Out of line, so that a caller that rules layers out with the thread-local reads stays small.
    @inline(never)
    private static var boundLayer: OverrideRegistry? { bound?.layer }

    static func with<Result>(_ layer: OverrideRegistry?, _ operation: () throws -> Result) rethrows
        -> Result
    {
        let counted = ik_in_task() == 0
        if counted { ik_thread_layers_add(1) }
        defer {
            if counted {
                assert(
                    ik_thread_layers_get() > 0,
                    "InjectableKit: a layer left more often than entered")
                ik_thread_layers_add(-1)
            }
        }
        return try $bound.withValue(Binding(layer), operation: operation)
    }

    static func with<Result>(
        _ layer: OverrideRegistry, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $bound.withValue(Binding(layer), operation: operation)
    }
}
