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
    // nonisolated(unsafe): a keypath is an immutable object, which every read only applies.
    @usableFromInline nonisolated(unsafe) let keyPath: KeyPath<Injections, Service>
    /// Shared by copies of the owner.
    @usableFromInline let storage: LazyStorage

    /// Remembers the key; nothing is resolved until the first access.
    ///
    /// - Parameter keyPath: The registration, for example `\.myService`.
    @inlinable
    public init(_ keyPath: KeyPath<Injections, Service>) {
        self.keyPath = keyPath
        storage = LazyStorage()
    }

    /// The instance, resolved on first access.
    @inlinable
    public var wrappedValue: Service {
        storage.value(keyPath)
    }
}

extension LazyInjectable: Sendable where Service: Sendable {}
