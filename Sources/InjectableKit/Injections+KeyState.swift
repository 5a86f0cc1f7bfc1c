extension Injections {
    /// Whether a scope holds an instance of `keyPath` now (a `shared` one still alive, a
    /// `cached` one not expired), so that resolving it would not build one.
    ///
    /// ```swift
    /// #expect(!Injections.container.hasCachedInstance(\.session))
    /// ```
    ///
    /// Inside `Injections.withOverrides`, it looks at that layer's caches.
    ///
    /// - Parameter keyPath: The key, with its arguments if it takes any.
    /// - Returns: Whether an instance is held.
    public func hasCachedInstance<Value>(_ keyPath: KeyPath<Injections, Value>) -> Bool {
        let registry = OverrideRegistry.current
        return Scope.all.contains { scope in
            registry.storage(for: scope).entries(ownedBy: keyPath).contains(where: \.holdsInstance)
        }
    }

    /// Whether resolving `keyPath` here would use an override: one registered for the key or
    /// for its type, globally or in an enclosing `Injections.withOverrides` layer.
    ///
    /// ```swift
    /// #expect(Injections.container.isOverridden(\.api))
    /// ```
    ///
    /// - Parameter keyPath: The key.
    /// - Returns: Whether an override applies.
    public func isOverridden<Value>(_ keyPath: KeyPath<Injections, Value>) -> Bool {
        AutoRegistration.ensure()
        let type = ObjectIdentifier(Value.self)
        return OverrideRegistry.current.chain.contains { $0.overrides(key: keyPath, type: type) }
    }

    /// Whether any override is registered in the registry that ``reset(file:line:)`` would
    /// empty here: the global one, or, inside `Injections.withOverrides`, that layer's own.
    /// Factory's `manager.isEmpty(.registration)`, the other way round.
    ///
    /// ```swift
    /// Injections.withOverrides { _ in } operation: {
    ///     runScreen()
    ///     #expect(!Injections.container.hasOverrides)   // the screen registered none
    /// }
    /// ```
    ///
    /// Overrides by key and by type both count. So do those an ``AutoRegistering`` hook
    /// registers: the hook runs first, and again after a global `reset()`, so in an app whose
    /// hook registers overrides the global answer stays `true`. Inside a layer, the overrides
    /// of enclosing layers and the global ones do not count, since its `reset()` leaves them:
    /// to ask whether an override applies to a key here, use ``isOverridden(_:)``.
    public var hasOverrides: Bool {
        AutoRegistration.ensure()
        return !OverrideRegistry.current.isEmpty
    }
}
