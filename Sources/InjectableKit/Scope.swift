extension Injections {
    /// How long an instance lives, and the cache that holds it.
    ///
    /// A registration chooses its scope with a helper in its getter. The built-in scopes are
    /// ``shared`` (held weakly), ``cached`` (until reset), ``application`` (once per process:
    /// Factory's and Swinject's singleton) and ``graph`` (within one top-level resolution). Define your own
    /// as static properties, and reset them when their lifetime ends:
    ///
    /// ```swift
    /// extension Injections.Scope {
    ///     static let session = Injections.Scope.cached("session")
    /// }
    /// extension Injections {
    ///     var user: UserSession { scoped(.session, UserSession()) }
    /// }
    /// func logout() { Injections.Scope.session.reset() }
    /// ```
    ///
    /// Each registration has its own instance: two keys of the same type in one scope hold two
    /// instances.
    public final class Scope: Sendable, CustomStringConvertible {
        enum Kind: Sendable {
            case unique, shared, cached, application, graph
        }

        /// The time to live, in a form the deployment floor can hold (see `TimeToLive`).
        let expiration: TimeToLive?
        let storage = ScopeStorage()
        /// Its name and kind, which a frame keeps instead of the scope: the registry holds
        /// scopes weakly, so each retain of one takes the runtime's slow path.
        let summary: Summary
        /// The scope's name, for diagnostics: its ``description``.
        var name: String { summary.name }
        var kind: Kind { summary.kind }

        /// What diagnostics read of a scope.
        final class Summary: Sendable {
            let name: String
            let kind: Kind

            init(name: String, kind: Kind) {
                self.name = name
                self.kind = kind
            }
        }

        init(name: String, kind: Kind, timeToLive: TimeToLive? = nil) {
            self.expiration = timeToLive
            summary = Summary(name: name, kind: kind)
            Self.registry.add(self)
        }

        /// The scope's name, as it was made (`cached`, `session`), for diagnostics.
        public var description: String { name }

        /// Instances held weakly: alive while something else holds them, rebuilt afterwards.
        ///
        /// A value type (a struct or an enum, or an existential holding one) cannot be held
        /// weakly, so a `shared` value is built anew on every resolution; use ``cached`` for
        /// values. `nil` is never held.
        public static let shared = Scope(name: "shared", kind: .shared)

        /// Instances held until the scope is reset.
        public static let cached = Scope(name: "cached", kind: .cached)

        /// Instances held for the life of the process. ``resetAll(includingApplication:)``
        /// spares them unless asked; ``reset()`` on this scope drops them (for tests).
        public static let application = Scope(name: "application", kind: .application)

        /// No instance kept: every resolution builds a new one, as a getter without a helper
        /// does. For an override that should not keep the key's lifetime:
        /// `register(\.api, scope: .unique) { MockAPI() }`.
        public static let unique = Scope(name: "unique", kind: .unique)

        /// One instance per top-level resolution: every registration resolved while building
        /// one `resolve(_:)` call's result shares it; the next call builds a new one.
        public static let graph = Scope(name: "graph", kind: .graph)

        /// Makes a custom scope that caches instances until it is reset.
        ///
        /// Keep the scope in a `static let`: each call makes a new, separate cache.
        ///
        /// ```swift
        /// extension Injections.Scope {
        ///     static let session = Injections.Scope.cached("session")
        /// }
        /// ```
        ///
        /// - Parameter name: The scope's name, for diagnostics.
        /// - Returns: A new scope.
        public static func cached(_ name: String) -> Scope {
            Scope(name: name, kind: .cached)
        }

        /// Makes a custom scope that caches instances until it is reset, or until their time to
        /// live runs out.
        ///
        /// Keep the scope in a `static let`: each call makes a new, separate cache.
        ///
        /// ```swift
        /// extension Injections.Scope {
        ///     static let feed = Injections.Scope.cached("feed", timeToLive: .seconds(300))
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - name: The scope's name, for diagnostics.
        ///   - timeToLive: How long an instance is kept before it is rebuilt; `nil` for as long
        ///     as the scope is not reset.
        /// - Returns: A new scope.
        @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
        public static func cached(_ name: String, timeToLive: Duration?) -> Scope {
            Scope(name: name, kind: .cached, timeToLive: timeToLive.map(TimeToLive.init))
        }

        /// Makes a custom scope that holds instances weakly, like ``shared``.
        ///
        /// - Parameter name: The scope's name, for diagnostics.
        /// - Returns: A new scope.
        public static func shared(_ name: String) -> Scope {
            Scope(name: name, kind: .shared)
        }

        /// Drops every instance this scope holds; the next resolution of each of its
        /// registrations builds a new one. Instances already handed out are not affected.
        ///
        /// Inside `Injections.withOverrides`, it resets the scope's caches of that layer only.
        public func reset() {
            OverrideRegistry.current.storage(for: self).reset()
        }

        /// Resets every scope.
        ///
        /// - Parameter includingApplication: Whether to reset ``application`` too.
        public static func resetAll(includingApplication: Bool = false) {
            for scope in all where includingApplication || scope.kind != .application {
                scope.reset()
            }
        }

        private static let registry = WeakList<Scope>()

        /// Every scope that exists now.
        static var all: [Scope] {
            registry.all
        }
    }
}
