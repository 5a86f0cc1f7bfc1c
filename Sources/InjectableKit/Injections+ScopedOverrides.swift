// Overrides that keep their instance in a scope, as the key's own registration does. An override
// is unique by default: the key's scope is written inside its getter, which only running the
// getter (building the live value the override replaces) could tell.
extension Injections {
    /// Overrides one key with a factory whose instance `scope` holds, as a scope helper in a
    /// registration would.
    ///
    /// ```swift
    /// extension Injections {
    ///     var imageCache: any ImageCaching { cached(ImageCache()) }
    /// }
    /// Injections.container.register(\.imageCache, scope: .cached) { MockImageCache() }
    /// // the same as
    /// Injections.container.register(\.imageCache) { Injections.cached(MockImageCache()) }
    /// ```
    ///
    /// An override without a scope builds a new instance on every resolution, whatever the
    /// scope of the key it replaces: the scope is written in the key's getter, and only
    /// running it would tell, which builds the live value. Give the override the key's scope
    /// when the code under test relies on getting the same instance twice.
    ///
    /// The override's instance is its own: it is not the one the key's registration cached,
    /// it is dropped when the scope is reset, and registering or resetting the key's override
    /// again drops it. In a layer (a test's `.injections` trait), it lives in that layer's
    /// caches.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - scope: The scope that holds the override's instance, such as `.cached` or
    ///     `.application`.
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

extension Injections.LocalOverrides {
    /// Overrides one key in this layer with a factory whose instance `scope` holds, in this
    /// layer's caches.
    ///
    /// ```swift
    /// @Test(.injections { $0.register(\.imageCache, scope: .cached) { MockImageCache() } })
    /// func thumbnailsShareTheCache() { ... }
    /// ```
    ///
    /// See ``Injections/register(_:scope:file:line:factory:)``.
    ///
    /// - Parameters:
    ///   - keyPath: The key to override.
    ///   - scope: The scope that holds the override's instance.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement, when the scope holds none.
    public func register<Value: Sendable>(
        _ keyPath: KeyPath<Injections, Value>, scope: Injections.Scope,
        file: StaticString = #fileID, line: UInt = #line,
        factory: @escaping @Sendable () -> Value
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
        return Override(
            {
                Injections.scoped(
                    scope, factory(), file: site, function: function, line: 1, column: 1)
            },
            keepsKeyLifetime: false)
    }

    private static let site: StaticString = "InjectableKit/Injections+ScopedOverrides.swift"
    private static let function: StaticString = "register(_:scope:factory:)"
}
