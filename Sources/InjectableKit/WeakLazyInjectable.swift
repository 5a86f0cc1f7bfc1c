/// Injects a class instance weakly, on first access: `nil` once the instance is gone.
///
/// For parent/child relationships, where a strong reference back would make a retain cycle:
///
/// ```swift
/// protocol ParentType: AnyObject { func childDidFinish() }
/// extension Injections {
///     var parent: any ParentType { shared(Parent()) }
///     var child: Child { shared(Child()) }
/// }
/// final class Child {
///     @WeakLazyInjectable(\.parent) var parent   // (any ParentType)?
/// }
/// ```
///
/// The key is resolved once, on the first access, also when several threads read at once
/// (they wait for the first and get its instance); the instance must be held strongly
/// elsewhere, or it is released at once. Like `@LazyInjectable`, it resolves in the override
/// layer it was made in, and a resolution that reads the property it is resolving stops the
/// program with a message naming the key.
///
/// The key's type must be a class, or a class-bound protocol (`protocol ParentType: AnyObject`),
/// since only those can be held weakly. Swift's generics cannot tell a class-bound protocol
/// from a value type, so a key of another type compiles, and stops the program with a message
/// naming it when the wrapper is made: use `@LazyInjectable` for those.
@propertyWrapper
public struct WeakLazyInjectable<Service> {
    private let storage: WeakLazyStorage<Service>

    /// Remembers the key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.parent`.
    public init(_ keyPath: KeyPath<Injections, Service>) {
        storage = WeakLazyStorage(keyPath) { Resolver.resolve(keyPath, token: 0, caller: nil) }
    }

    /// Remembers an optional key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.currentUser`.
    public init(_ keyPath: KeyPath<Injections, Service?>) {
        storage = WeakLazyStorage(keyPath) { Resolver.resolve(keyPath, token: 0, caller: nil) }
    }

    /// The instance, resolved on first access; `nil` once it has been released.
    public var wrappedValue: Service? {
        storage.value
    }
}

extension WeakLazyInjectable: Sendable where Service: Sendable {}
