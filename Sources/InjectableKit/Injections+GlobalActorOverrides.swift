// Overrides for registrations isolated to a global actor other than the main actor. The factory
// names its actor (`{ @StorageActor in MockStore() }`), and carries it as an `@isolated(any)`
// function, so that one form serves every global actor.
extension Injections {
    /// Overrides one key isolated to a global actor with a factory isolated to that actor.
    ///
    /// ```swift
    /// @globalActor actor StorageActor { static let shared = StorageActor() }
    /// extension Injections {
    ///     @StorageActor var store: Store { cached(DiskStore()) }
    /// }
    /// Injections.container.registerOnGlobalActor(\.store) { @StorageActor in MemoryStore() }
    /// ```
    ///
    /// Write the actor on the closure (`@StorageActor in`): a closure without one is
    /// nonisolated, and calling the actor's initialisers in it does not compile. A key to a
    /// property isolated to a global actor can only be named on that actor, so the factory
    /// always runs there; it otherwise behaves as ``register(_:file:line:factory:)``. For the
    /// main actor, ``registerOnMainActor(_:file:line:factory:)`` needs no annotation.
    ///
    /// In a test's trait, give the closure the key's actor, so that it can name the key:
    ///
    /// ```swift
    /// @Test(.injections(isolated: { @StorageActor in
    ///     $0.registerOnGlobalActor(\.store) { @StorageActor in MemoryStore() }
    /// }))
    /// @StorageActor func savesItems() { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, on its actor.
    public func registerOnGlobalActor<Value>(
        _ keyPath: KeyPath<Injections, Value>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @isolated(any) @Sendable () -> Value
    ) {
        register(keyPath, file: file, line: line, factory: GlobalActorFactory.bridge(factory))
    }

    /// Overrides every key whose type is the factory's return type with a factory isolated to
    /// a global actor: the global-actor form of ``register(as:file:line:_:)``.
    ///
    /// ```swift
    /// Injections.container.registerOnGlobalActor { @StorageActor in MemoryStore() as Store }
    /// ```
    ///
    /// Resolving a matching key off that actor stops the process: register such overrides only
    /// for types that code on other actors does not resolve.
    ///
    /// - Parameters:
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, on its actor.
    public func registerOnGlobalActor<Value>(
        file: StaticString = #fileID, line: UInt = #line,
        _ factory: @escaping @isolated(any) @Sendable () -> Value
    ) {
        register(file: file, line: line, GlobalActorFactory.bridge(factory))
    }
}

enum GlobalActorFactory {
    /// A nonisolated factory that runs `factory` in place, having checked that the caller is
    /// on the factory's actor. Resolution is synchronous, and a key isolated to a global actor
    /// can only be named on that actor, so a key override always passes the check.
    static func bridge<Value>(_ factory: @escaping @isolated(any) @Sendable () -> Value)
        -> @Sendable () -> Value
    {
        let isolation = factory.isolation
        // NB: a synchronous `@isolated(any)` function is called as a nonisolated one: its
        // isolation is only carried beside it (`isolation`), to be read by callers that hop.
        // `MainActorFactory.bridge` makes the same cast for `@MainActor` functions.
        let unisolated = unsafeBitCast(factory, to: (@Sendable () -> Value).self)
        guard let isolation else { return unisolated }
        if isolation === MainActor.shared {
            return {
                if !MainActorFactory.isOnMainActor { Failure.offMainActor(Value.self) }
                return unisolated()
            }
        }
        return {
            // Stops the process off the actor, with the runtime's message naming the actor.
            isolation.preconditionIsolated()
            return unisolated()
        }
    }
}
