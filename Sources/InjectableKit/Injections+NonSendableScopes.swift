// The scope helpers that hand one instance to every thread, for a type that is not `Sendable`:
// each is the `Sendable` helper's twin without the constraint, so the call compiles, with a
// deprecation warning that says why. Overload resolution picks the constrained helper whenever
// the type is `Sendable`, so these serve only the others. Hidden from the documentation, where
// they would only repeat the helpers.
extension Injections {
    /// ``shared`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func shared<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.shared, make, site: Site(file, function, line, column), token: token,
            timeToLive: nil)
    }

    /// ``cached`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func cached<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column), token: token,
            timeToLive: nil)
    }

    /// ``cached`` with a time to live, for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func cached<Value>(
        _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column), token: token,
            timeToLive: timeToLive.map(TimeToLive.init))
    }

    /// ``application`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func application<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.application, make, site: Site(file, function, line, column), token: token,
            timeToLive: nil)
    }

    /// ``singleton`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func singleton<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.application, make, site: Site(file, function, line, column), token: token,
            timeToLive: nil)
    }

    /// ``scoped`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func scoped<Value>(
        _ scope: Scope, _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column), token: token,
            timeToLive: nil)
    }

    /// ``scoped`` with a time to live, for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public func scoped<Value>(
        _ scope: Scope, _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column), token: token,
            timeToLive: timeToLive.map(TimeToLive.init))
    }

    /// ``shared`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func shared<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.shared, make, site: Site(file, function, line, column), token: 0,
            timeToLive: nil)
    }

    /// ``cached`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func cached<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column), token: 0,
            timeToLive: nil)
    }

    /// ``cached`` with a time to live, for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func cached<Value>(
        _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.cached, make, site: Site(file, function, line, column), token: 0,
            timeToLive: timeToLive.map(TimeToLive.init))
    }

    /// ``application`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func application<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.application, make, site: Site(file, function, line, column), token: 0,
            timeToLive: nil)
    }

    /// ``singleton`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func singleton<Value>(
        _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            Scope.application, make, site: Site(file, function, line, column), token: 0,
            timeToLive: nil)
    }

    /// ``scoped`` for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func scoped<Value>(
        _ scope: Scope, _ make: @autoclosure () -> Value,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column), token: 0,
            timeToLive: nil)
    }

    /// ``scoped`` with a time to live, for a type that is not `Sendable`: compiles, with a warning.
    @_documentation(visibility: private)
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    @available(
        *, deprecated,
        message:
            "this helper hands one instance to every thread, but the type it holds is not Sendable: make it Sendable (a @MainActor class, an actor, a final class of lets), or, if the app confines it to one thread, declare `extension TheType: @unchecked Sendable {}`"
    )
    public static func scoped<Value>(
        _ scope: Scope, _ make: @autoclosure () -> Value, timeToLive: Duration?,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line,
        column: UInt = #column
    ) -> Value {
        Resolver.scoped(
            scope, make, site: Site(file, function, line, column), token: 0,
            timeToLive: timeToLive.map(TimeToLive.init))
    }

}
