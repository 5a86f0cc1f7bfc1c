extension Injections {
    /// Holds the instance weakly: every resolution returns it while something else holds it;
    /// after the last holder lets go, the next resolution builds a new one.
    ///
    /// A value type cannot be held weakly: a `shared` struct or enum (or an existential holding
    /// one) is built anew on every resolution. Use
    /// ``cached(_:decorate:file:function:line:column:)-method`` for values.
    ///
    /// ```swift
    /// extension Injections {
    ///     var myService: any MyServiceType { shared(MyService()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public func shared<Value: Sendable>(
        _ make: @autoclosure () -> Value, decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(in: .shared, make, nil, decorate, Site(file, function, line, column))
    }

    /// Caches the instance until ``Scope/cached`` is reset.
    ///
    /// ```swift
    /// extension Injections {
    ///     var imageCache: ImageCache { cached(ImageCache()) }
    /// }
    /// ```
    ///
    /// Every helper takes a decoration, part of the key's registration: it runs once on each
    /// instance built, the registration's or an override's (a test's mock too). Give the
    /// helper the key's type, so that the decoration takes every value of the key (see
    /// <doc:RegistrationsAndScopes>):
    ///
    /// ```swift
    /// extension Injections {
    ///     var logger: any Logger {
    ///         cached(LiveLogger() as any Logger, decorate: { $0.minimumLevel = .debug })
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public func cached<Value: Sendable>(
        _ make: @autoclosure () -> Value, decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(in: .cached, make, nil, decorate, Site(file, function, line, column))
    }

    /// Caches the instance until ``Scope/cached`` is reset or its time to live runs out.
    ///
    /// ```swift
    /// extension Injections {
    ///     var feed: Feed { cached(Feed(), timeToLive: .seconds(300)) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - timeToLive: How long the instance is kept before it is rebuilt; `nil` for as long
    ///     as the scope is not reset.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public func cached<Value: Sendable>(
        _ make: @autoclosure () -> Value, timeToLive: Duration?,
        decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(
            in: .cached, make, timeToLive.map(TimeToLive.init), decorate,
            Site(file, function, line, column))
    }

    /// Builds the instance once for the life of the process.
    ///
    /// Built exactly once, even when many threads ask at the same time.
    ///
    /// ```swift
    /// extension Injections {
    ///     var settings: Settings { application(Settings()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public func application<Value: Sendable>(
        _ make: @autoclosure () -> Value, decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(in: .application, make, nil, decorate, Site(file, function, line, column))
    }

    /// Shares the instance within one top-level resolution: every registration resolved while
    /// building one `resolve(_:)` result gets the same instance; the next resolution builds anew.
    ///
    /// ```swift
    /// extension Injections {
    ///     var unitOfWork: UnitOfWork { graph(UnitOfWork()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public func graph<Value>(
        _ make: @autoclosure () -> Value, decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(in: .graph, make, nil, decorate, Site(file, function, line, column))
    }

    /// Holds the instance in a custom scope.
    ///
    /// ```swift
    /// extension Injections.Scope {
    ///     static let session = Injections.Scope.cached("session")
    /// }
    /// extension Injections {
    ///     var user: UserSession { scoped(.session, UserSession()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The scope that holds the instance.
    ///   - make: Builds the instance.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public func scoped<Value: Sendable>(
        _ scope: Scope, _ make: @autoclosure () -> Value,
        decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(in: scope, make, nil, decorate, Site(file, function, line, column))
    }

    /// Holds the instance in a custom scope, with a time to live of its own.
    ///
    /// ```swift
    /// extension Injections {
    ///     var token: AuthToken { scoped(.session, AuthToken(), timeToLive: .seconds(900)) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The scope that holds the instance.
    ///   - make: Builds the instance.
    ///   - timeToLive: How long the instance is kept before it is rebuilt; `nil` for the scope's
    ///     own time to live.
    ///   - decorate: Runs on each instance as it is built, whether this registration or an
    ///     override of the key built it; `nil` for none.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public func scoped<Value: Sendable>(
        _ scope: Scope, _ make: @autoclosure () -> Value, timeToLive: Duration?,
        decorate: (@Sendable (inout Value) -> Void)? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        hold(
            in: scope, make, timeToLive.map(TimeToLive.init), decorate,
            Site(file, function, line, column))
    }

    /// The scope helpers' one road: the instance `scope` holds for the registration at `site`.
    private func hold<Value>(
        in scope: Scope, _ make: () -> Value, _ timeToLive: TimeToLive?,
        _ decorate: (@Sendable (inout Value) -> Void)?, _ site: Site
    ) -> Value {
        Resolver.scoped(
            scope, make, site: site, token: token, timeToLive: timeToLive, decorate: decorate)
    }
}
