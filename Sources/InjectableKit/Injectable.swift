/// Injects a dependency when its owner is initialised.
///
/// ```swift
/// final class ContentViewModel {
///     @Injectable(\.myService) var service
///     func accountChanged() { $service.resolve() }   // resolve again, overrides applying
/// }
/// ```
///
/// The type comes from the key, so a key that does not exist, or a declared type that does not
/// match it, does not compile. The value is resolved once, in the owner's initialiser, through
/// ``Injections/container``: overrides apply. `$service.resolve()` resolves it again, as it does
/// on `@LazyInjectable`.
///
/// The value is stored in the wrapper, as Factory's `@Injected` stores it: a copy of a struct
/// that owns it keeps its own, and assigning or resolving again changes that owner's alone.
@propertyWrapper
public struct Injectable<Service> {
    /// The injected instance. Settable, so that a test can hand one in directly.
    public var wrappedValue: Service

    /// The key, for ``resolve(fileID:line:)``.
    // NB: nonisolated(unsafe): a `KeyPath` is not `Sendable` (SE-0418), though nothing mutates
    // one; the lazy wrappers keep theirs in an `@unchecked Sendable` storage for the same reason.
    @usableFromInline nonisolated(unsafe) let keyPath: KeyPath<Injections, Service>

    /// Resolves the dependency now.
    ///
    /// - Parameters:
    ///   - keyPath: The registration, for example `\.myService`.
    ///   - fileID: The declaration's file; leave the default. A mistake the resolution makes in
    ///     a test (a `liveOnly` key reached) fails the test here.
    ///   - line: The declaration's line; leave the default.
    @inlinable
    public init(
        _ keyPath: KeyPath<Injections, Service>, fileID: StaticString = #fileID,
        line: UInt = #line
    ) {
        self.keyPath = keyPath
        wrappedValue = Resolver.resolve(keyPath, token: 0, caller: nil, fileID: fileID, line: line)
    }

    /// The wrapper itself, for `$service.resolve()`: the same spelling as the lazy wrappers'
    /// projection, and Factory's `@Injected`'s.
    ///
    /// ```swift
    /// @Injectable(\.myService) var service
    /// func accountChanged() { $service.resolve() }
    /// ```
    public var projectedValue: Self {
        get { self }
        set { self = newValue }
    }

    /// Resolves the key again, where this is called (in the `Injections.withOverrides` layer in
    /// effect there, if any), and keeps the result for every later read: a unique key builds a
    /// new instance, a cached one returns what its scope holds now, an override registered
    /// since the owner was made applies.
    ///
    /// Called on the projection, `$service.resolve()`; it changes the property, so the owner
    /// must be mutable there (a class, or a struct in a `mutating` method).
    ///
    /// ```swift
    /// Injections.container.register(\.myService) { MockService() }
    /// $service.resolve()   // service is now the mock
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The call's file; leave the default. A mistake the resolution makes in a test
    ///     fails the test here.
    ///   - line: The call's line; leave the default.
    /// - Returns: The instance the property now holds.
    @discardableResult
    public mutating func resolve(fileID: StaticString = #fileID, line: UInt = #line) -> Service {
        wrappedValue = Resolver.resolve(keyPath, token: 0, caller: nil, fileID: fileID, line: line)
        return wrappedValue
    }
}

extension Injectable: Sendable where Service: Sendable {}
