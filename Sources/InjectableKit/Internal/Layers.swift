import Synchronization

/// The task-local override layer in effect (see `Injections.withOverrides`).
enum Layers {
    @TaskLocal static var current: OverrideRegistry?

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(_ layer: OverrideRegistry, _ operation: () throws -> Result) rethrows
        -> Result
    {
        MemoTable.shared.activeLayers.wrappingAdd(1, ordering: .relaxed)
        defer { MemoTable.shared.activeLayers.wrappingSubtract(1, ordering: .relaxed) }
        return try $current.withValue(layer, operation: operation)
    }

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(
        _ layer: OverrideRegistry, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        MemoTable.shared.activeLayers.wrappingAdd(1, ordering: .relaxed)
        defer { MemoTable.shared.activeLayers.wrappingSubtract(1, ordering: .relaxed) }
        return try await $current.withValue(layer, operation: operation)
    }
}
