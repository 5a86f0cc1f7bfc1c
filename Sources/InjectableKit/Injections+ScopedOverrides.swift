// Overrides given a lifetime of their own, instead of their key's.
extension Injections {
    /// Overrides one key with a factory whose instance `scope` holds, whatever the key's own
    /// scope: an override without `scope:` keeps the key's.
    ///
    /// ```swift
    /// extension Injections {
    ///     var imageCache: any ImageCaching { cached(ImageCache()) }
    /// }
    /// Injections.container.register(\.imageCache, scope: .unique) { MockImageCache() }
    /// ```
    ///
    /// The key's decoration (its helper's `decorate:`) runs on each instance the override
    /// builds, once as it is built; to learn it, the key's getter runs once up to its helper,
    /// which builds nothing, as for an override without `scope:` (see <doc:Testing>).
    ///
    /// The override's instance is its own: it is not the one the key's registration cached,
    /// it is dropped when the scope is reset, and registering or resetting the key's override
    /// again drops it. In a layer (a test's `.injections` trait), it lives in that layer's
    /// caches.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - scope: The scope that holds the override's instance, such as `.cached`,
    ///     `.application`, or `.unique` for a new one at every resolution.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, when the scope holds none.
    public func register<Value: Sendable>(
        _ keyPath: KeyPath<Injections, Value>, scope: Scope, file: StaticString = #fileID,
        line: UInt = #line, factory: @escaping @Sendable () -> Value
    ) {
        register(keyPath, Override(factory, scope: scope), file: file, line: line)
    }
}
