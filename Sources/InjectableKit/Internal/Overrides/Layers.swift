/// The task-local override layer in effect (see `Injections.withOverrides`). While any layer
/// exists, resolution checks for one (see `OverrideRegistry.init`).
enum Layers {
    @TaskLocal static var current: OverrideRegistry?

    /// Runs `operation` with `layer` (`nil`: none) in effect for the current task and the tasks
    /// it starts.
    static func with<Result>(_ layer: OverrideRegistry?, _ operation: () throws -> Result) rethrows
        -> Result
    {
        try $current.withValue(layer, operation: operation)
    }

    /// Runs `operation` with `layer` in effect for the current task and the tasks it starts.
    static func with<Result>(
        _ layer: OverrideRegistry, isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $current.withValue(layer, operation: operation)
    }
}
