// Inside `Injections.withOverrides`, every call here affects that task-local layer, not the
// global registry: a test that runs in its own layer can use `Injections.container` freely.
extension Injections {
    /// Overrides every key of type `type`: by default the factory's return type, as in the
    /// seed's form, where the type is inferred from what the closure returns.
    ///
    /// ```swift
    /// Injections.container.register { MockService() as any MyServiceType }
    /// // the same, naming the type of the keys
    /// Injections.container.register(as: (any MyServiceType).self) { MockService() }
    /// ```
    ///
    /// Every form resolves in the same order: an override for the key, then one for its type,
    /// then the key's own registration with its scope. A key's own override beats one for its
    /// type wherever each was registered; among overrides of one kind, the innermost layer's
    /// wins, and the global registry's comes last.
    ///
    /// The type must match exactly: an override for `any MyServiceType` does not serve a key of
    /// type `(any MyServiceType)?`, and `register { MockService() }` compiles too, but overrides
    /// only keys declared as `MockService`; naming the type with `as:` says which keys the
    /// override is for. Registering drops what scopes cached for that type, and what they
    /// cached from it, so the next resolution uses the new factory.
    ///
    /// The factory's instance lives as each key it serves says: a `cached` key holds one mock
    /// until its scope is reset, a unique key builds one on every resolution.
    ///
    /// - Parameters:
    ///   - type: The type of the keys to override, as they are declared; by default, the
    ///     factory's return type.
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement.
    public func register<Value>(
        as type: Value.Type = Value.self, file: StaticString = #fileID, line: UInt = #line,
        _ factory: @escaping @Sendable () -> Value
    ) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.register(
            Override(factory), forType: ObjectIdentifier(Value.self),
            attempt: "register { ... as \(Value.self) }")
        TestHook.changed(registry, "register { ... as \(Value.self) }", file: file, line: line)
    }

    /// Overrides one key.
    ///
    /// ```swift
    /// Injections.container.register(\.myService) { MockService() }
    ///
    /// // An optional key set after login, and cleared on logout:
    /// Injections.container.register(\.user) { UserProvider(user: user) }
    /// Injections.container.reset(\.user)
    /// ```
    ///
    /// Every form resolves in the same order: an override for the key, then one for its type,
    /// then the key's own registration with its scope. A key's own override beats one for its
    /// type wherever each was registered; among overrides of one kind, the innermost layer's
    /// wins, and the global registry's comes last.
    ///
    /// Registering drops what scopes cached for the key, and what they cached from it (a cached
    /// parent built with it), so the next resolution uses the new
    /// factory. The factory's instance lives as the key's would: a `cached` key holds one mock
    /// until its scope is reset (see <doc:Testing>);
    /// ``register(_:scope:file:line:factory:)`` chooses another lifetime.
    ///
    /// The factory may build on the value it replaces: resolving the same key directly in it
    /// resolves what the key would be without this override (an override of the key beneath
    /// it, in an enclosing layer or the global registry; else one of its type, the same
    /// registry's included; else the key's own registration, with its scope). So an override
    /// can change one property of the live value, or decorate each instance the key resolves
    /// to:
    ///
    /// ```swift
    /// Injections.container.register(\.weather) {
    ///     var weather = Injections.container.resolve(\.weather)
    ///     weather.forecast = { "rain" }
    ///     return weather
    /// }
    /// ```
    ///
    /// Reaching the key again through another key (`\.weather` → `\.city` → `\.weather`) is
    /// still a dependency cycle.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement.
    public func register<Value>(
        _ keyPath: KeyPath<Injections, Value>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () -> Value
    ) {
        register(keyPath, Override(factory), file: file, line: line)
    }

    func register<Value>(
        _ keyPath: KeyPath<Injections, Value>, _ override: Override<Value>, file: StaticString,
        line: UInt
    ) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.register(
            override, forKey: keyPath,
            attempt: "register(\(KeyNames.describe(keyPath))) at \(file):\(line)")
        TestHook.changed(
            registry, "register(\(KeyNames.describe(keyPath))) { ... }", file: file, line: line)
    }

    /// Drops every override, and what scopes cached for the keys and types they served (and
    /// what was built from that). `Scope.resetAll()` drops the scopes' instances.
    ///
    /// | Call | Drops |
    /// | --- | --- |
    /// | `reset()` | every override, and what was cached from them |
    /// | `reset(\.key)` | the key's override and cached instances, and what was built from them |
    /// | `reset(Type.self)` | the type's override, and what was cached from it |
    /// | `Scope.cached.reset()` | one scope's instances |
    /// | `Scope.resetAll(includingApplication: true)` | every scope's instances |
    ///
    /// Inside `Injections.withOverrides`, each drops that layer's overrides and caches only.
    /// The ``AutoRegistering`` hook, if the program has one, runs again before the next use
    /// of the container, so the app's module-level registrations come back.
    ///
    /// - Parameters:
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    public func reset(file: StaticString = #fileID, line: UInt = #line) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.removeAll(attempt: "reset()")
        if !registry.isLayer { AutoRegistration.rearm() }
        TestHook.changed(registry, "reset()", file: file, line: line)
    }

    /// Drops one key: its override, the instances scopes cached for it (its own and its
    /// override's), and what they cached from them (a cached parent built with it), as
    /// Factory's `reset` of a factory does. The next resolution builds the key again, with its
    /// own registration.
    ///
    /// For a key with arguments it drops that argument value only:
    ///
    /// ```swift
    /// Injections.container.reset(\.session)  // after logout
    /// Injections.container.reset(\.[account: 42])
    /// ```
    ///
    /// To drop the instances of every argument value of a subscript, give it a scope of its own
    /// (`scoped(.accounts, Account(id))`) and reset that scope.
    ///
    /// - Parameters:
    ///   - keyPath: The key whose override to drop.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    public func reset<Value>(
        _ keyPath: KeyPath<Injections, Value>, file: StaticString = #fileID, line: UInt = #line
    ) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.removeOverride(
            forKey: keyPath, attempt: "reset(\(KeyNames.describe(keyPath))) at \(file):\(line)")
        for scope in Scope.all {
            registry.storage(for: scope).reset { $0.owner == keyPath }
        }
        TestHook.changed(registry, "reset(\(KeyNames.describe(keyPath)))", file: file, line: line)
    }

    /// Drops the type override registered with ``register(as:file:line:_:)`` for `type`, and what scopes
    /// cached for it.
    ///
    /// - Parameters:
    ///   - type: The type whose override to drop, for example `(any MyServiceType).self`.
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    public func reset<Value>(
        _ type: Value.Type, file: StaticString = #fileID, line: UInt = #line
    ) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.removeOverride(
            forType: ObjectIdentifier(type), attempt: "reset(\(Value.self).self)")
        TestHook.changed(registry, "reset(\(Value.self).self)", file: file, line: line)
    }

    /// Saves the whole override registry, to restore it with ``pop(to:file:line:)``.
    ///
    /// ```swift
    /// override func setUp() { Injections.container.push() }
    /// override func tearDown() { Injections.container.pop() }
    /// ```
    ///
    /// The saved levels form one stack: a `pop()` restores the latest. Keep what `push()`
    /// returns and pass it to `pop(to:)` to restore this level whatever was pushed or popped
    /// in between, as the `.globalInjections` trait does around each test.
    ///
    /// - Returns: The level saved, for ``pop(to:file:line:)``.
    @discardableResult
    public func push() -> SavedOverrides {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        let (overrides, below) = registry.push(attempt: "push()")
        return SavedOverrides(registry: registry, overrides: overrides, below: below)
    }

    /// Restores the override registry saved by the matching ``push()``, dropping what scopes
    /// cached for every key and type whose override changed. Does nothing without a `push()`.
    ///
    /// ```swift
    /// let saved = Injections.container.push()
    /// defer { Injections.container.pop(to: saved) }
    /// Injections.container.register(\.api) { MockAPI() }
    /// ```
    ///
    /// Given the level a `push()` returned, it restores that registry exactly as it was before
    /// that `push()`: its overrides, and the levels saved beneath it, even if a `pop()` in
    /// between already restored that level, or a `push()` was left without its `pop()`.
    ///
    /// - Parameters:
    ///   - saved: The level to restore, as ``push()`` returned it; `nil`, the default, for the
    ///     latest level of the registry in effect.
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    public func pop(
        to saved: SavedOverrides? = nil, file: StaticString = #fileID, line: UInt = #line
    ) {
        AutoRegistration.ensure()
        if let saved {
            saved.registry.restore(saved.overrides, below: saved.below, attempt: "pop(to:)")
            TestHook.changed(
                saved.registry, "pop(to:)", file: file, line: line, wasPushed: true)
            return
        }
        let registry = OverrideRegistry.current
        let wasPushed = !registry.isLayer && registry.isPushed
        registry.pop(attempt: "pop()")
        // Without a `push()`, nothing changed.
        if wasPushed {
            TestHook.changed(registry, "pop()", file: file, line: line, wasPushed: wasPushed)
        }
    }
}
