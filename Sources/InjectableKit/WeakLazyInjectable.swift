/// Injects a class instance weakly, on first access: `nil` once the instance is gone.
///
/// For parent/child relationships, where a strong reference back would make a retain cycle:
///
/// ```swift
/// extension Injections {
///     var parent: Parent { shared(Parent()) }
///     var child: Child { shared(Child()) }
/// }
/// final class Child {
///     @WeakLazyInjectable(\.parent) var parent   // Parent?
/// }
/// ```
///
/// The key is resolved once, on the first access; the instance must be held strongly
/// elsewhere, or it is released at once. The key's type must be a class (or a class-bound
/// protocol), since only those can be held weakly. Like `@LazyInjectable`, it resolves in the
/// override layer it was made in.
@propertyWrapper
public struct WeakLazyInjectable<Service: AnyObject> {
    private let storage: WeakLazyStorage<Service>

    /// Remembers the key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.parent`.
    public init(_ keyPath: KeyPath<Injections, Service>) {
        storage = WeakLazyStorage { Resolver.resolve(keyPath, token: 0, caller: nil) }
    }

    /// Remembers an optional key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.currentUser`.
    public init(_ keyPath: KeyPath<Injections, Service?>) {
        storage = WeakLazyStorage { Resolver.resolve(keyPath, token: 0, caller: nil) }
    }

    /// The instance, resolved on first access; `nil` once it has been released.
    public var wrappedValue: Service? {
        storage.value
    }
}

extension WeakLazyInjectable: Sendable where Service: Sendable {}

/// The state of one `@WeakLazyInjectable` property.
final class WeakLazyStorage<Service: AnyObject>: @unchecked Sendable {
    // @unchecked: `resolve` is immutable, and `instance`, `done` and `layer` are guarded by
    // `lock`.
    private let resolve: () -> Service?
    private let lock = Lock()
    private weak var instance: Service?
    private var done = false
    /// Where the first read resolves; let go of once it has.
    private var layer: LayerTicket?

    init(_ resolve: @escaping () -> Service?) {
        self.resolve = resolve
        self.layer = LayerTicket.current
    }

    var value: Service? {
        lock.lock()
        if done {
            let instance = instance
            lock.unlock()
            return instance
        }
        let layer = self.layer
        lock.unlock()
        let fresh = LayerTicket.run(in: layer, resolve)  // outside the lock, as in `LazyStorage`
        let (value, released) = lock.withLock {
            guard !done else { return (instance, LayerTicket?.none) }
            instance = fresh
            done = true
            defer { self.layer = nil }
            return (instance, self.layer)
        }
        withExtendedLifetime((fresh, released)) {}  // released outside the lock
        return value
    }
}
