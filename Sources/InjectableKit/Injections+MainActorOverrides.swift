import Foundation

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
        register(keyPath, file: file, line: line, factory: MainActorFactory.bridge(factory))
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
        register(file: file, line: line, MainActorFactory.bridge(factory))
    }
}

enum MainActorFactory {
    /// A nonisolated factory that runs `factory` in place, checking that it is on the main
    /// actor. Resolution is synchronous and `@MainActor` keys can only be named on the main
    /// actor, so a key override always passes the check.
    static func bridge<Value>(_ factory: @escaping @MainActor @Sendable () -> Value)
        -> @Sendable () -> Value
    {
        // Not `MainActor.assumeIsolated`, which requires a `Sendable` result. The same check,
        // then the same cast it makes: a synchronous function's global-actor isolation does not
        // change how it is called.
        // NB: not `MainActor.preconditionIsolated`, which on Linux traps inside libdispatch
        // before any message is printed.
        let unisolated = unsafeBitCast(factory, to: (@Sendable () -> Value).self)
        return {
            if !isOnMainActor { Failure.offMainActor(Value.self) }
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
