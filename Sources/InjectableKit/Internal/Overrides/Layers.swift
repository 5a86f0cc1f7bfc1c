import CInjectableAtomics

/// The task-local override layer in effect (see `Injections.withOverrides`).
enum Layers {
    /// A layer put in effect. While one exists, resolution steps off its fast path to look for
    /// it: through its `with` call, and after, in a `Task { }` started inside, which inherits
    /// (and retains) it. A layer that is only kept (`makeOverrides`) costs nothing.
    final class Binding: Sendable {
        let layer: OverrideRegistry?

        init(_ layer: OverrideRegistry?) {
            self.layer = layer
            MemoTable.beginDetour(MemoTable.layerDetour)
        }

        deinit { MemoTable.endDetour(MemoTable.layerDetour) }
    }

    @TaskLocal private static var bound: Binding?

    /// The layer in effect. Outside any task, a layer can only be in effect through
    /// ``with(_:_:)`` on this thread, which counts it: then a thread-local read answers, not a
    /// task-local look-up, so that a layer alive elsewhere costs the code outside it little.
    static var current: OverrideRegistry? {
        @inline(__always) get { mayBeInEffect ? boundLayer : nil }
    }

    /// Whether a layer may be in effect: this thread put one in effect, or a task runs here.
    static var mayBeInEffect: Bool {
        @inline(__always) get { ik_thread_layers_get() != 0 || ik_in_task() != 0 }
    }

    /// The task-local look-up, out of line so that a caller that rules layers out with
    /// ``mayBeInEffect`` stays small.
    @inline(never)
    static var boundLayer: OverrideRegistry? { bound?.layer }

    /// Runs `operation` with `layer` (`nil`: none) in effect for the current task and the tasks
    /// it starts.
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

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(
        _ layer: OverrideRegistry, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $bound.withValue(Binding(layer), operation: operation)
    }
}
