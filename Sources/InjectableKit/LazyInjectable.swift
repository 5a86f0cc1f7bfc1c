/// Injects a dependency on first access, once per owner.
///
/// ```swift
/// final class ReportViewModel {
///     @LazyInjectable(\.pdfRenderer) var renderer   // resolved only if a report is exported
/// }
/// ```
///
/// Safe to read from several threads at once: they all get the same instance.
///
/// The key resolves in the override layer the wrapper was made in, whenever it is first read:
/// an object made inside `Injections.withOverrides` gets that layer's overrides even if it
/// first reads the property after the operation has returned, on another thread, or in a
/// detached task. (If nothing holds the layer by then, the read resolves in a layer with the
/// same overrides, whose scope caches are new.) A wrapper made outside any layer resolves
/// where it is first read, in the layer in effect there, if any.
@propertyWrapper
public struct LazyInjectable<Service> {
    private let storage: LazyStorage<Service>

    /// Remembers the key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.myService`.
    public init(_ keyPath: KeyPath<Injections, Service>) {
        storage = LazyStorage(keyPath)
    }

    /// The instance, resolved on first access.
    public var wrappedValue: Service {
        storage.value
    }
}

extension LazyInjectable: Sendable where Service: Sendable {}

/// The state of one `@LazyInjectable` property, shared by copies of its owner.
final class LazyStorage<Service>: @unchecked Sendable {
    // @unchecked: `resolved` and `layer` are guarded by `lock`; the keypath is an immutable
    // object.
    private let keyPath: KeyPath<Injections, Service>
    private let lock = Lock()
    private var resolved: Service?
    /// Where the first read resolves; let go of once it has.
    private var layer: LayerTicket?

    init(_ keyPath: KeyPath<Injections, Service>) {
        self.keyPath = keyPath
        self.layer = LayerTicket.current
    }

    var value: Service {
        lock.lock()
        if let resolved {
            lock.unlock()
            return resolved
        }
        let layer = self.layer
        lock.unlock()
        // Resolved outside the lock, so that the resolution may touch this property's owner;
        // when two threads race, the first result stored is the one everybody gets.
        let fresh = LayerTicket.run(in: layer) { Resolver.resolve(keyPath, token: 0, caller: nil) }
        lock.lock()
        let value = resolved ?? fresh
        resolved = value
        let released = self.layer
        self.layer = nil
        lock.unlock()
        withExtendedLifetime(released) {}  // the layer's caches released outside the lock
        return value
    }
}
