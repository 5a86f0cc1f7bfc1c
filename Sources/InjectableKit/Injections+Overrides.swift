import Foundation

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
        changeOverrides("register { ... as \(Value.self) }", file: file, line: line) {
            $0.byType[ObjectIdentifier(Value.self)] = Override(factory)
        }
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
        changeOverrides(
            "register(\(KeyNames.describe(keyPath))) { ... }",
            refusedAs: "register(\(KeyNames.describe(keyPath))) at \(file):\(line)",
            file: file, line: line
        ) { $0.byKey[keyPath] = override }
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
        changeOverrides("reset()", file: file, line: line) {
            $0 = Overrides()
        } then: { registry in
            if !registry.isLayer { AutoRegistration.rearm() }
        }
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
        changeOverrides(
            "reset(\(KeyNames.describe(keyPath)))",
            refusedAs: "reset(\(KeyNames.describe(keyPath))) at \(file):\(line)",
            file: file, line: line
        ) {
            $0.byKey[keyPath] = nil
        } then: { registry in
            for scope in Scope.all {
                registry.storage(for: scope).reset(ownedBy: keyPath)
            }
        }
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
        changeOverrides("reset(\(Value.self).self)", file: file, line: line) {
            $0.byType[ObjectIdentifier(type)] = nil
        }
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
        return OverrideRegistry.current.push(attempt: "push()")
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
        let registry = saved?.registry ?? OverrideRegistry.current
        let call = saved == nil ? "pop()" : "pop(to:)"
        let wasPushed = saved != nil || registry.isPushed
        registry.pop(to: saved, attempt: call)
        // Without a `push()`, nothing changed.
        if wasPushed { TestHook.changed(registry, call, file: file, line: line, wasPushed: true) }
    }

    /// The one road of `register` and `reset`: runs the ``AutoRegistering`` hook if it is due,
    /// changes the registry in effect (refused once sealed), and reports the change to a
    /// running test if that registry is the global one.
    ///
    /// - Parameters:
    ///   - call: The call, as the report names it.
    ///   - refusal: The call as the message names it if the container is sealed; `call` if nil.
    ///   - file: Where the call is.
    ///   - line: The line of the call.
    ///   - update: Changes the overrides.
    ///   - finish: What else the call does with the registry changed, before the report: a
    ///     report can end an XCTest test (`continueAfterFailure = false`) where it is made.
    private func changeOverrides(
        _ call: @autoclosure () -> String, refusedAs refusal: @autoclosure () -> String? = nil,
        file: StaticString, line: UInt, _ update: (inout Overrides) -> Void,
        then finish: (OverrideRegistry) -> Void = { _ in }
    ) {
        AutoRegistration.ensure()
        let registry = OverrideRegistry.current
        registry.change(refusal() ?? call(), update)
        finish(registry)
        TestHook.changed(registry, call(), file: file, line: line)
    }
}

extension Injections {
    /// A type override in a layer, and whether it has served a resolution: what the testing
    /// traits check, at the end of a test, to report an override that matched no key.
    ///
    /// A type override serves the keys whose declared type is exactly its type. The common
    /// mistake is to register a concrete type, `register { MockService() }`, for keys declared
    /// as a protocol, `any MyServiceType`: it compiles, and serves nothing.
    public enum TypeOverride: Sendable, Hashable {
        /// An override that has served a resolution. `typeName` is the overridden type, as
        /// Swift spells it with its module (`App.MockService`, `any App.MyServiceType`).
        case served(typeName: String)
        /// An override that has served no resolution: its type, and a message that says so,
        /// and how to give the override the type of the keys.
        case unused(typeName: String, message: String)

        init(_ override: AnyOverride) {
            let typeName = InjectableKit.typeName(override.valueType, qualified: true)
            self =
                override.hasServed
                ? .served(typeName: typeName)
                : .unused(
                    typeName: typeName,
                    message: Self.unusedMessage(
                        typeName, isExistential: isExistentialType(override.valueType)))
        }

        /// Says that the override of `typeName` served nothing, and how to give it the type of
        /// the keys.
        private static func unusedMessage(_ typeName: String, isExistential: Bool) -> String {
            let served = "the type override for \(typeName) served no resolution"
            guard !isExistential else {
                return served + ": no key declared exactly `\(typeName)` was resolved (an "
                    + "optional key, `(\(typeName))?`, is another type), or an override for "
                    + "the key itself won"
            }
            let exact = served + ". A type override serves the keys declared with exactly its type"
            // A generic type (an optional, an array) has no one name to put in an example.
            guard !typeName.contains("<"),
                let short = typeName.split(separator: ".").last.map(String.init)
            else { return exact + ": give the factory's result the keys' type with `as`" }
            return exact + ": for keys declared as a protocol, write "
                + "`register { \(short)(...) as any YourProtocol }` or "
                + "`register(as: (any YourProtocol).self) { \(short)(...) }`"
        }
    }
}

extension Injections.LocalOverrides {
    /// The type overrides registered in this layer (by `register { ... }` or
    /// `register(as:_:)` in it), each as served or unused so far.
    ///
    /// ```swift
    /// let layer = Injections.makeOverrides { $0.register { MockService() } }
    /// Injections.withOverrides(layer) { runScreen() }
    /// for case .unused(_, let message) in layer.typeOverrides {
    ///     print(message)
    /// }
    /// ```
    public var typeOverrides: [Injections.TypeOverride] {
        registry.typeOverrides.map(Injections.TypeOverride.init)
    }
}

// Overrides given a lifetime of their own, instead of their key's.
extension Injections {
    /// Overrides one key with a factory whose instance `scope` holds, whatever the key's own
    /// scope: an override without `scope:` keeps the key's.
    ///
    /// ```swift
    /// extension Injections {
    ///     var imageCache: any ImageCaching { cached(ImageCache()) }
    /// }
    /// Injections.container.register(\.imageCache, scope: .unique) { MockImageCache() }
    /// ```
    ///
    /// The key's decoration (its helper's `decorate:`) runs on each instance the override
    /// builds, once as it is built; to learn it, the key's getter runs once up to its helper,
    /// which builds nothing, as for an override without `scope:` (see <doc:Testing>).
    ///
    /// The override's instance is its own: it is not the one the key's registration cached,
    /// it is dropped when the scope is reset, and registering or resetting the key's override
    /// again drops it. In a layer (a test's `.injections` trait), it lives in that layer's
    /// caches.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - scope: The scope that holds the override's instance, such as `.cached`,
    ///     `.application`, or `.unique` for a new one at every resolution.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, when the scope holds none.
    public func register<Value: Sendable>(
        _ keyPath: KeyPath<Injections, Value>, scope: Scope, file: StaticString = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () -> Value
    ) {
        register(keyPath, Override(factory, scope: scope), file: file, line: line)
    }
}

// Overrides that take a key's arguments. Swift has no keypath to a subscript without its
// arguments (`\.[account:]`), and a keypath's arguments are visible only to its `==` and
// `hash(into:)`: an override of `\.[account: 42]` is for that one value. A registration that
// builds from its arguments through a key of function type (`var makeAccount: @Sendable (Int) ->
// Account`) gives tests one key to override for every argument value, with the arguments.
// One generic form serves every number of arguments: the function type comes from the key,
// and the closure after the call is checked against it. (A parameter pack cannot spell the
// function type: one that is stored as a keypath's value "cannot fully abstract a value of
// variadic function type".)
extension Injections {
    /// Overrides a key of function type, whose function builds a value from its arguments,
    /// with a function of the same arguments: how a test replaces what a subscript key builds,
    /// for every argument value at once.
    ///
    /// ```swift
    /// extension Injections {
    ///     var makeAccount: @Sendable (Int) -> any Account { { LiveAccount(id: $0) } }
    ///     subscript(account id: Int) -> any Account { cached(resolve(\.makeAccount)(id)) }
    /// }
    /// Injections.container.register(\.makeAccount) { id in MockAccount(id: id) }
    /// Injections.container.resolve(\.[account: 42])  // MockAccount(id: 42), cached for 42
    /// Injections.container.register(\.makeSession) { user, device in MockSession(user, device) }
    /// ```
    ///
    /// Registering drops what the subscript cached from the function it replaces, for every
    /// argument value. An override of one argument value, `register(\.[account: 42]) { ... }`,
    /// still wins over this one for that value, since it replaces the subscript itself.
    ///
    /// It is the same override as `register(\.makeAccount) { { id in MockAccount(id: id) } }`,
    /// without the outer closure. (A key of a type that is not a function, even one a closure
    /// converts to, such as `any Sendable`, takes ``register(_:file:line:factory:)``: its
    /// closure returns the value.)
    ///
    /// - Parameters:
    ///   - keyPath: The key of function type to override.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement from the arguments; the closure after the call.
    public func register<Function: Sendable>(
        _ keyPath: KeyPath<Injections, Function>, file: StaticString = #fileID,
        line: UInt = #line, arguments factory: Function
    ) {
        register(keyPath, file: file, line: line) { factory }
    }
}

// Overrides for `@MainActor` registrations. A closure that builds a main-actor type is itself
// main-actor isolated, and Swift does not pick an overload by a closure's isolation, so these
// have their own name. They may be called from anywhere: registering only stores the closure.
extension Injections {
    /// Overrides one `@MainActor` key with a factory that runs on the main actor.
    ///
    /// ```swift
    /// extension Injections {
    ///     @MainActor var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
    /// }
    /// Injections.container.registerOnMainActor(\.contentViewModel) { PreviewViewModel() }
    /// ```
    ///
    /// A key to a `@MainActor` property can only be resolved on the main actor, so the factory
    /// always runs there. It otherwise behaves as ``register(_:file:line:factory:)``.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, on the main actor.
    public func registerOnMainActor<Value>(
        _ keyPath: KeyPath<Injections, Value>, file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @MainActor @Sendable () -> Value
    ) {
        register(keyPath, file: file, line: line, factory: GlobalActorFactory.bridge(factory))
    }

    /// Overrides every key whose type is the factory's return type with a factory that runs on
    /// the main actor: the main-actor form of ``register(as:file:line:_:)``.
    ///
    /// ```swift
    /// Injections.container.registerOnMainActor { PreviewViewModel() as ContentViewModel }
    /// ```
    ///
    /// Resolving a matching key off the main actor stops the process with a message: register
    /// main-actor overrides only for types that nonisolated code does not resolve.
    ///
    /// - Parameters:
    ///   - file: Where the call is, for the report of a test's global change; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, on the main actor.
    public func registerOnMainActor<Value>(
        file: StaticString = #fileID, line: UInt = #line,
        _ factory: @escaping @MainActor @Sendable () -> Value
    ) {
        register(file: file, line: line, GlobalActorFactory.bridge(factory))
    }
}

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
    /// can only be named on that actor, so a key override always passes the check. A
    /// `@MainActor` factory (`registerOnMainActor`) comes here as one isolated to the main actor.
    static func bridge<Value>(_ factory: @escaping @isolated(any) @Sendable () -> Value)
        -> @Sendable () -> Value
    {
        let isolation = factory.isolation
        // NB: a synchronous `@isolated(any)` function is called as a nonisolated one: its
        // isolation is only carried beside it (`isolation`), to be read by callers that hop.
        let unisolated = unsafeBitCast(factory, to: (@Sendable () -> Value).self)
        guard let isolation else { return unisolated }
        if isolation === MainActor.shared {
            // Not `MainActor.assumeIsolated`, which requires a `Sendable` result.
            // NB: nor `MainActor.preconditionIsolated`, which on Linux traps inside libdispatch
            // before any message is printed.
            return {
                if !isOnMainActor { Failure.offMainActor(Value.self) }
                return unisolated()
            }
        }
        return {
            // Stops the process off the actor, with the runtime's message naming the actor.
            isolation.preconditionIsolated()
            return unisolated()
        }
    }

    /// Marks the main queue, so that code can tell it runs there without trapping.
    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let markMainQueue: Void = {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }()

    /// Whether the caller runs on the main actor: on the main thread (synchronous code
    /// before the main queue runs), or in a job of the main queue, which is the main actor's
    /// executor (on Linux, `dispatchMain()` drains it on another thread).
    static var isOnMainActor: Bool {
        _ = markMainQueue
        return Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
    }
}

extension Injections {
    /// One level of the override registry, as ``Injections/push()`` saved it: pass it to
    /// ``Injections/pop(to:file:line:)`` to put the registry back exactly as it was before that
    /// `push()`.
    ///
    /// ```swift
    /// let saved = Injections.container.push()
    /// defer { Injections.container.pop(to: saved) }
    /// runScenario()   // may register, push and pop as it likes
    /// ```
    ///
    /// It keeps the overrides it saved alive until it is released. It belongs to the registry
    /// its `push()` saved, the global one or a `withOverrides` layer, and restores that one
    /// wherever `pop(to:)` is called.
    public struct SavedOverrides: @unchecked Sendable {
        // @unchecked: an immutable copy of the registry's state, whose keypaths and overrides
        // the registry already hands between threads under its lock.
        let registry: OverrideRegistry
        let overrides: Overrides
        let below: [Overrides]
    }
}
