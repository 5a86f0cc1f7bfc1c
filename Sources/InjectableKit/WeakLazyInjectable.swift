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
        storage = WeakLazyStorage(keyPath)
    }

    /// Remembers an optional key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.currentUser`.
    public init(_ keyPath: KeyPath<Injections, Service?>) {
        storage = WeakLazyStorage(keyPath)
    }

    /// The instance, resolved on first access; `nil` once it has been released.
    ///
    /// Assigning replaces it, held weakly, for every later read; copies of the owner share
    /// it. An assignment before the first read means the key is never resolved.
    public var wrappedValue: Service? {
        get { storage.value }
        nonmutating set { storage.assign(newValue) }
    }

    /// The wrapper itself, for `$parent.resolve()` and `$parent.valueIfResolved`: the same
    /// spelling as `@Injectable`'s and `@LazyInjectable`'s.
    ///
    /// ```swift
    /// final class Child {
    ///     @WeakLazyInjectable(\.parent) var parent
    ///     func parentChanged() { $parent.resolve() }
    /// }
    /// ```
    public var projectedValue: Self { self }

    /// Resolves the key again, where this is called (in the `Injections.withOverrides`
    /// layer in effect there, if any), and holds the result weakly for every later read. A
    /// property not read yet makes its first read instead.
    ///
    /// Called on the projection: `$parent.resolve()`.
    ///
    /// - Returns: The instance the property now holds, if it is alive.
    @discardableResult
    public func resolve() -> Service? {
        storage.resolveAgain()
    }

    /// The instance, if the property was read (or assigned) already and the instance is
    /// alive; `nil` otherwise, and while another thread's first read is resolving it.
    /// Never resolves the key.
    ///
    /// Read on the projection: `$parent.valueIfResolved`.
    public var valueIfResolved: Service? {
        storage.valueIfResolved
    }
}

extension WeakLazyInjectable: Sendable where Service: Sendable {}
