/// The task-local override layer in effect (see `Injections.withOverrides`).
enum Layers {
    @TaskLocal static var current: OverrideRegistry?

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(_ layer: OverrideRegistry, _ operation: () throws -> Result) rethrows
        -> Result
    {
        MemoTable.shared.beginDetour()
        defer { MemoTable.shared.endDetour() }
        return try $current.withValue(layer, operation: operation)
    }

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(
        _ layer: OverrideRegistry, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        MemoTable.shared.beginDetour()
        defer { MemoTable.shared.endDetour() }
        return try await $current.withValue(layer, operation: operation)
    }
}
