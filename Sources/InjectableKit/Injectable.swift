/// Injects a dependency when its owner is initialised.
///
/// ```swift
/// final class ContentViewModel {
///     @Injectable(\.myService) var service
/// }
/// ```
///
/// The type comes from the key, so a key that does not exist, or a declared type that does not
/// match it, does not compile. The value is resolved once, in the owner's initialiser, through
/// ``Injections/container``: overrides apply.
@propertyWrapper
public struct Injectable<Service> {
    /// The injected instance. Settable, so that a test can hand one in directly.
    public var wrappedValue: Service

    /// Resolves the dependency now.
    ///
    /// - Parameter keyPath: The registration, for example `\.myService`.
    @inlinable
    public init(_ keyPath: KeyPath<Injections, Service>) {
        wrappedValue = Resolver.resolve(keyPath, token: 0, caller: nil)
    }
}

extension Injectable: Sendable where Service: Sendable {}
