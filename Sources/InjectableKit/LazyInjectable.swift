/// Injects a dependency on first access, once per owner.
///
/// ```swift
/// final class ReportViewModel {
///     @LazyInjectable(\.pdfRenderer) var renderer   // resolved only if a report is exported
/// }
/// ```
///
/// Safe to read from several threads at once: they all get the same instance.
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
    // @unchecked: `resolved` is guarded by `lock`; the keypath is an immutable object.
    private let keyPath: KeyPath<Injections, Service>
    private let lock = Lock()
    private var resolved: Service?

    init(_ keyPath: KeyPath<Injections, Service>) {
        self.keyPath = keyPath
    }

    var value: Service {
        if let resolved = lock.withLock({ resolved }) { return resolved }
        // Resolved outside the lock, so that the resolution may touch this property's owner;
        // when two threads race, the first result stored is the one everybody gets.
        let fresh = Resolver.resolve(keyPath, token: 0, caller: nil)
        return lock.withLock {
            if let resolved { return resolved }
            resolved = fresh
            return fresh
        }
    }
}
