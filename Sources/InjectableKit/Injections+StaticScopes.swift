// The static forms of the scope helpers, for code that has no `Injections` value: an override's
// closure (`register(\.api) { Injections.cached(MockAPI()) }`) and static code, such as
// `static func registerMockServices() { container.register { self.shared(MockService()) } }`.
// Each forwards to the same implementation as its instance form.
extension Injections {
    /// The static form of ``shared(_:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public static func shared<Value: Sendable>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.shared, make, site: Site(file, function, line, column),
            token: 0, timeToLive: nil)
    }

    /// The static form of ``cached(_:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public static func cached<Value: Sendable>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column),
            token: 0, timeToLive: nil)
    }

    /// The static form of ``cached(_:timeToLive:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - timeToLive: How long the instance is kept before it is rebuilt.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public static func cached<Value: Sendable>(
        _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column),
            token: 0, timeToLive: timeToLive.map(TimeToLive.init))
    }

    /// The static form of ``application(_:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public static func application<Value: Sendable>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.application, make, site: Site(file, function, line, column),
            token: 0, timeToLive: nil)
    }

    /// The static form of ``graph(_:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - make: Builds the instance.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public static func graph<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.graph, make, site: Site(file, function, line, column),
            token: 0, timeToLive: nil)
    }

    /// The static form of ``scoped(_:_:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - scope: The scope that holds the instance.
    ///   - make: Builds the instance.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    public static func scoped<Value: Sendable>(
        _ scope: Scope, _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column),
            token: 0, timeToLive: nil)
    }

    /// The static form of ``scoped(_:_:timeToLive:file:function:line:column:)-method``:
    /// for an override's closure or static code, which have no `Injections` value.
    ///
    /// - Parameters:
    ///   - scope: The scope that holds the instance.
    ///   - make: Builds the instance.
    ///   - timeToLive: How long the instance is kept before it is rebuilt; `nil` for the scope's
    ///     own ``Scope/timeToLive``.
    ///   - file: The registration's file; leave the default.
    ///   - function: The registration's name; leave the default.
    ///   - line: The registration's line; leave the default.
    ///   - column: The registration's column; leave the default.
    /// - Returns: The instance, built by `make` only when the scope holds none.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    public static func scoped<Value: Sendable>(
        _ scope: Scope, _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column),
            token: 0, timeToLive: timeToLive.map(TimeToLive.init))
    }
}
