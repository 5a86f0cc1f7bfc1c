extension Injections {
    /// Drops the instances scopes cached for one key, and what they cached from them (a cached
    /// parent built with it), without touching the rest of any scope or the key's override.
    /// The next resolution builds the key again.
    ///
    /// For a key with arguments it drops the instance of that argument value only:
    ///
    /// ```swift
    /// Injections.container.resetCache(\.session)  // after logout
    /// Injections.container.resetCache(\.[account: 42])
    /// ```
    ///
    /// Inside `Injections.withOverrides`, it drops the instances of that layer's caches only,
    /// as `Scope.reset()` does. To drop a key's override, use
    /// ``reset(_:file:line:)-(KeyPath<Injections,Value>,_,_)``. To drop the instances of every
    /// argument value of a subscript, give it a scope of its own (`scoped(.accounts,
    /// Account(id))`) and reset that scope.
    ///
    /// - Parameter keyPath: The key whose cached instances to drop.
    public func resetCache<Value>(_ keyPath: KeyPath<Injections, Value>) {
        let registry = OverrideRegistry.current
        for scope in Scope.all {
            registry.storage(for: scope).reset { $0.owner == keyPath }
        }
    }

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
            !registry.storage(for: scope).entries { $0.owner == keyPath && $0.holdsInstance }
                .isEmpty
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
        var servedBy: OverrideRegistry?
        var byKey = false
        return OverrideRegistry.current.override(for: keyPath, servedBy: &servedBy, byKey: &byKey)
            != nil
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

    /// Drops everything the container was given or built since launch: every override, then
    /// every cached instance of every scope, ``Scope/application`` included. Contexts
    /// (`when(.test)`, `when(.argument(_:))`) are read from the process and hold no state to
    /// reset.
    ///
    /// ```swift
    /// Injections.container.resetAll()
    /// ```
    ///
    /// Inside `Injections.withOverrides`, it drops that layer's overrides and caches only. To
    /// keep the application scope, call ``reset(file:line:)`` and
    /// `Scope.resetAll(includingApplication: false)` instead.
    ///
    /// - Parameters:
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    public func resetAll(file: StaticString = #fileID, line: UInt = #line) {
        reset(file: file, line: line)
        Scope.resetAll(includingApplication: true)
    }
}
