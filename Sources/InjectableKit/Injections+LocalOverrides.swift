extension Injections {
    /// A layer of overrides, captured to run code in it later with
    /// `withOverrides(_:operation:)`: what ``currentOverrides`` and
    /// ``makeOverrides(_:)`` return.
    ///
    /// It is a handle, with no operations of its own: to change a layer, run code in it and use
    /// ``Injections/container``, whose `register`, `contribute` and `reset` then change that
    /// layer.
    ///
    /// ```swift
    /// let preview = Injections.makeOverrides { $0.register(\.api) { PreviewAPI() } }
    /// Injections.withOverrides(preview) { Injections.container.register(\.clock) { TestClock() } }
    /// ```
    public struct LocalOverrides: Sendable {
        let registry: OverrideRegistry
        /// Whether `withOverrides(_:operation:)` runs code in it as a running test's layer
        /// (see ``Injections/_testLayer(_:)``).
        var isTest = false
    }

    /// Runs `operation` with its own overrides and its own scope caches, layered over the
    /// global ones: everything resolved inside (nested resolutions, property wrappers
    /// initialised inside, child tasks) sees them, and nothing outside does.
    ///
    /// ```swift
    /// let screen = Injections.withOverrides {
    ///     $0.register { MockService() as any MyServiceType }
    /// } operation: {
    ///     ContentViewModel()
    /// }
    /// ```
    ///
    /// Inside `configure` and `operation`, ``Injections/container``'s `register`, `contribute`,
    /// `reset` and `push`/`pop` change this layer, and `Injections.Scope` resets reset this layer's caches, so tests that
    /// run in their own layers never see each other's overrides, and can run in parallel.
    ///
    /// Layers nest, over the global registry. Every form resolves in the same order: an
    /// override for the key, then one for its type, then the key's own registration with its
    /// scope. A key's own override beats one for its type wherever each was registered; among
    /// overrides of one kind, the innermost layer's wins, and the global registry's comes last.
    ///
    /// `@LazyInjectable` and `@WeakLazyInjectable` made inside remember the layer, and resolve
    /// in it when first read, even after `operation` has returned; an ``AsyncInjection`` made
    /// inside builds in it likewise.
    ///
    /// > Important: Task-local values reach child tasks (`async let`, task groups, `Task { }`)
    /// > but not detached tasks (`Task.detached`) or callbacks run later on other threads (a
    /// > completion handler, a `DispatchQueue` block). To carry the overrides there, capture
    /// > ``currentOverrides`` and run the work in
    /// > `withOverrides(_:operation:)`.
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides. It runs in the new layer, so the value it is
    ///     passed, like ``Injections/container``, registers, contributes and resets there.
    ///   - operation: The work that sees them.
    /// - Returns: What `operation` returns.
    public static func withOverrides<Result>(
        _ configure: (Injections) -> Void, operation: () throws -> Result
    ) rethrows -> Result {
        try Layers.with(makeOverrides(configure).registry, operation)
    }

    /// Runs the async `operation` with its own overrides and scope caches: the async form of
    /// `withOverrides(_:operation:)`.
    ///
    /// ```swift
    /// let accounts = try await Injections.withOverrides {
    ///     $0.register(\.api) { MockAPI() }
    /// } operation: {
    ///     try await AccountsViewModel().load()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configure: Registers the overrides, in the new layer.
    ///   - isolation: The caller's isolation; leave the default.
    ///   - operation: The work that sees them.
    /// - Returns: What `operation` returns.
    public static func withOverrides<Result>(
        _ configure: (Injections) -> Void, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await Layers.with(makeOverrides(configure).registry, operation)
    }

    /// The overrides in effect for the current task, if it runs inside
    /// `withOverrides(_:operation:)`; capture them to carry them into a detached
    /// task or a callback.
    ///
    /// ```swift
    /// let overrides = Injections.currentOverrides
    /// Task.detached {
    ///     Injections.withOverrides(overrides) { refresh() }
    /// }
    /// ```
    public static var currentOverrides: LocalOverrides? {
        let registry = OverrideRegistry.current
        return registry.isLayer ? LocalOverrides(registry: registry) : nil
    }

    /// Runs `operation` inside the overrides captured from ``currentOverrides``, with the
    /// same overrides and scope caches as the task they were captured in; with `nil`, just
    /// runs it.
    ///
    /// - Parameters:
    ///   - overrides: Overrides captured with ``currentOverrides``.
    ///   - operation: The work that sees them.
    /// - Returns: What `operation` returns.
    public static func withOverrides<Result>(
        _ overrides: LocalOverrides?, operation: () throws -> Result
    ) rethrows -> Result {
        guard let overrides else { return try operation() }
        guard overrides.isTest else {
            Sealing.refuseIfSealed("withOverrides(_:operation:) with captured overrides")
            return try Layers.with(overrides.registry, operation)
        }
        TestLayers.enter(overrides.registry)
        defer { TestLayers.leave(overrides.registry) }
        return try Layers.with(overrides.registry, operation)
    }

    /// The async form of `withOverrides(_:operation:)`.
    ///
    /// - Parameters:
    ///   - overrides: Overrides captured with ``currentOverrides``.
    ///   - isolation: The caller's isolation; leave the default.
    ///   - operation: The work that sees them.
    /// - Returns: What `operation` returns.
    public static func withOverrides<Result>(
        _ overrides: LocalOverrides?, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        guard let overrides else { return try await operation() }
        guard overrides.isTest else {
            Sealing.refuseIfSealed("withOverrides(_:operation:) with captured overrides")
            return try await Layers.with(overrides.registry, operation)
        }
        TestLayers.enter(overrides.registry)
        defer { TestLayers.leave(overrides.registry) }
        return try await Layers.with(overrides.registry, operation)
    }

    /// `overrides`, to run a test in with `withOverrides(_:operation:)`, as a running test's
    /// layer: while the test runs, a resolution made outside any layer, of a key the layer
    /// overrides, is reported to the test process. `InjectableTesting`'s `.injections` trait
    /// and `InjectableTestCase` call it; tests use those.
    ///
    /// - Parameter overrides: The test's layer.
    /// - Returns: The same layer, marked as a test's.
    public static func _testLayer(_ overrides: LocalOverrides) -> LocalOverrides {
        LocalOverrides(registry: overrides.registry, isTest: true)
    }

    /// A layer of overrides to run code in now and later, with
    /// `withOverrides(_:operation:)`: every run shares its overrides and its scope caches.
    ///
    /// For a SwiftUI preview, or any value made in a layer and used after:
    ///
    /// ```swift
    /// let preview = Injections.makeOverrides { $0.register(\.api) { PreviewAPI() } }
    /// let screen = Injections.withOverrides(preview) { AccountsScreen() }
    /// Injections.withOverrides(preview) { screen.refresh() }
    /// ```
    ///
    /// The layer is made over the one in effect, if any.
    ///
    /// - Parameter configure: Registers the overrides, in the new layer.
    /// - Returns: The layer, for `withOverrides(_:operation:)`.
    public static func makeOverrides(_ configure: (Injections) -> Void) -> LocalOverrides {
        Sealing.refuseIfSealed("withOverrides")
        AutoRegistration.ensure()
        let layer = OverrideRegistry(beneath: .current)
        // `configure` runs in the new layer, so that every operation of the container, called
        // on the value passed or on `Injections.container`, changes this layer alone.
        Layers.with(layer) { configure(.container) }
        return LocalOverrides(registry: layer)
    }
}
