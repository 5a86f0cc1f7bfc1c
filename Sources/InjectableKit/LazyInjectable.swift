/// Injects a dependency on first access, once per owner.
///
/// ```swift
/// final class ReportViewModel {
///     @LazyInjectable(\.pdfRenderer) var renderer   // resolved only if a report is exported
/// }
/// ```
///
/// Safe to read from several threads at once: the key is resolved once, by the first read,
/// and the others wait for it and get the same instance. The resolution must not read the
/// property it is resolving (on its own thread, or through another thread it waits for): that
/// is a dependency cycle, and stops the program with a message naming the key.
///
/// The key resolves in the override layer the wrapper was made in, whenever it is first read:
/// an object made inside `Injections.withOverrides` gets that layer's overrides even if it
/// first reads the property after the operation has returned, on another thread, or in a
/// detached task. (If nothing holds the layer by then, the read resolves in a layer with the
/// same overrides, whose scope caches are new.) A wrapper made outside any layer resolves
/// where it is first read, in the layer in effect there, if any.
@propertyWrapper
public struct LazyInjectable<Service> {
    /// Shared by copies of the owner; holds the key.
    @usableFromInline let storage: LazyStorage

    /// Remembers the key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.myService`.
    @inlinable
    public init(_ keyPath: KeyPath<Injections, Service>) {
        storage = LazyStorage(keyPath)
    }

    /// The instance, resolved on first access.
    ///
    /// Assigning replaces it for every later read, from any thread; copies of the owner share
    /// it. An assignment before the first read means the key is never resolved. (Reads after an
    /// assignment take a lock, where the first value's reads take none.)
    @inlinable
    public var wrappedValue: Service {
        get { storage.value(as: Service.self) }
        nonmutating set { storage.assign(newValue) }
    }

    /// The wrapper itself, for `$renderer.resolve()` and `$renderer.valueIfResolved`: the
    /// same spelling as `@Injectable`'s and `@WeakLazyInjectable`'s.
    ///
    /// ```swift
    /// final class ReportViewModel {
    ///     @LazyInjectable(\.pdfRenderer) var renderer
    ///     var isRendererReady: Bool { $renderer.valueIfResolved != nil }
    ///     func rendererChanged() { $renderer.resolve() }
    /// }
    /// ```
    @inlinable
    public var projectedValue: Self { self }

    /// Resolves the key again, where this is called (in the `Injections.withOverrides`
    /// layer in effect there, if any), and keeps the result for every later read: a unique
    /// key builds a new instance, a cached one returns what its scope holds now. A property
    /// not read yet makes its first read instead.
    ///
    /// Called on the projection: `$renderer.resolve()`.
    ///
    /// - Returns: The instance the property now holds.
    @inlinable @discardableResult
    public func resolve() -> Service {
        storage.resolveAgain(as: Service.self)
    }

    /// The instance, if the property was read (or assigned) already; `nil` otherwise,
    /// and while another thread's first read is resolving it. Never resolves the key.
    ///
    /// Read on the projection: `$renderer.valueIfResolved`.
    @inlinable
    public var valueIfResolved: Service? {
        storage.valueIfResolved(as: Service.self)
    }
}

extension LazyInjectable: Sendable where Service: Sendable {}
