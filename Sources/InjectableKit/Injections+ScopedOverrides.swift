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
    /// The key's getter is never run to learn its lifetime, which an override without `scope:`
    /// does once (see <doc:Testing>).
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
        register(keyPath, ScopedOverride.override(scope, factory), file: file, line: line)
    }
}

enum ScopedOverride {
    /// An override that `scope` holds, whatever the key's own scope.
    static func override<Value: Sendable>(
        _ scope: Injections.Scope, _ factory: @escaping @Sendable () -> Value
    ) -> Override<Value> {
        if scope.kind == .unique { return Override(factory, keepsKeyLifetime: false) }
        // One site for every such override: each is its own registration (see `EntryKey`).
        let site = Site(
            "InjectableKit/Injections+ScopedOverrides.swift", "register(_:scope:factory:)", 1, 1)
        return Override(
            { Resolver.scoped(scope, factory, site: site, token: 0, timeToLive: nil) },
            keepsKeyLifetime: false)
    }
}
