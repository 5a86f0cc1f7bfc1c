extension Injections {
    /// Resolves the dependency a keypath names: its override if one is registered, otherwise
    /// the registration's own getter, with its scope.
    ///
    /// Use it on ``container`` as a service locator, and inside registrations for constructor
    /// injection, so that overrides reach nested dependencies too:
    ///
    /// ```swift
    /// extension Injections {
    ///     var api: APIClient { cached(APIClient()) }
    ///     var accounts: AccountsService { AccountsService(api: resolve(\.api)) }
    /// }
    /// let accounts = Injections.container.resolve(\.accounts)
    /// ```
    ///
    /// A registration that takes arguments is a subscript, resolved with them:
    /// `resolve(\.[account: 42])`.
    ///
    /// A key is one property or subscript of `Injections`. To read a property of a
    /// dependency, resolve the key and read it: `resolve(\.date).now`. A keypath through a key
    /// (`resolve(\.date.now)`) would run the key's getter past its overrides, so it stops at
    /// its first resolution, with a message naming that fix.
    ///
    /// Resolution cannot fail: the key exists, or the call does not compile. A dependency cycle
    /// (`a` needs `b` needs `a`) stops the process with a message naming the whole chain.
    ///
    /// - Parameters:
    ///   - keyPath: The registration, for example `\.myService`.
    ///   - caller: The calling function; leave the default. It names the registration being
    ///     built in diagnostics.
    ///   - fileID: The call's file; leave the default. A mistake this resolution makes in a
    ///     test (a `liveOnly` key reached, a keypath through a key) fails the test here.
    ///   - line: The call's line; leave the default.
    /// - Returns: The instance.
    @inlinable @inline(__always)
    public func resolve<Value>(
        _ keyPath: KeyPath<Injections, Value>, caller: StaticString = #function,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Value {
        Resolver.resolve(keyPath, token: token, caller: caller, fileID: fileID, line: line)
    }
}
