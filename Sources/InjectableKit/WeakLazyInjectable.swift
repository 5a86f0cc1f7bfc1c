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
/// The key is resolved once, on the first access; the instance must be held strongly
/// elsewhere, or it is released at once. Like `@LazyInjectable`, it resolves in the override
/// layer it was made in.
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
///
/// The instance's object is held weakly. A class-bound existential (`any ParentType`) is the
/// object and its witness tables, which a weak reference cannot carry, so the value is also
/// kept as its bytes, without a retain, and read only while the weak reference says the object
/// is alive.
final class WeakLazyStorage<Service>: @unchecked Sendable {
    // @unchecked: `resolve` is immutable, and `object`, `unretained`'s contents, `done` and
    // `layer` are guarded by `lock`.
    private let resolve: () -> Service?
    private let lock = Lock()
    private weak var object: AnyObject?
    /// The instance as a `Service`, copied bit for bit without a retain: never released.
    private let unretained = UnsafeMutableRawPointer.allocate(
        byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
    private var done = false
    /// Where the first read resolves; let go of once it has.
    private var layer: LayerTicket?

    init(_ resolve: @escaping () -> Service?) {
        if !isClassBound(Service.self) { Failure.notClassBound(Service.self) }
        self.resolve = resolve
        self.layer = LayerTicket.current
    }

    deinit {
        unretained.deallocate()  // holds no reference: nothing to release
    }

    var value: Service? {
        lock.lock()
        if done {
            let instance = read()
            lock.unlock()
            return instance
        }
        let layer = self.layer
        lock.unlock()
        let fresh = LayerTicket.run(in: layer, resolve)  // outside the lock, as in `LazyStorage`
        let (value, released) = lock.withLock {
            guard !done else { return (read(), LayerTicket?.none) }
            if let fresh {
                // A class instance, or a class-bound existential: `as AnyObject` is its object.
                object = fresh as AnyObject
                withUnsafeBytes(of: fresh) {
                    unretained.copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                }
            }
            done = true
            defer { self.layer = nil }
            return (fresh, self.layer)
        }
        withExtendedLifetime((fresh, released)) {}  // released outside the lock
        return value
    }

    /// The instance, retained, if it is alive. Call with `lock` locked.
    private func read() -> Service? {
        guard let alive = object else { return nil }
        // The bytes name `alive`, which this frame holds, so the copy's retain is sound.
        return withExtendedLifetime(alive) { unretained.load(as: Service.self) }
    }
}
