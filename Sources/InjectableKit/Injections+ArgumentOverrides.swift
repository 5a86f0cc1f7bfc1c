// Overrides that take a key's arguments. Swift has no keypath to a subscript without its
// arguments (`\.[account:]`), and a keypath's arguments are visible only to its `==` and
// `hash(into:)`: an override of `\.[account: 42]` is for that one value. A registration that
// builds from its arguments through a key of function type (`var makeAccount: @Sendable (Int) ->
// Account`) gives tests one key to override for every argument value, with the arguments.
// One generic form serves every number of arguments: the function type comes from the key,
// and the closure after the call is checked against it. (A parameter pack cannot spell the
// function type: one that is stored as a keypath's value "cannot fully abstract a value of
// variadic function type".)
extension Injections {
    /// Overrides a key of function type, whose function builds a value from its arguments,
    /// with a function of the same arguments: how a test replaces what a subscript key builds,
    /// for every argument value at once.
    ///
    /// ```swift
    /// extension Injections {
    ///     var makeAccount: @Sendable (Int) -> any Account { { LiveAccount(id: $0) } }
    ///     subscript(account id: Int) -> any Account { cached(resolve(\.makeAccount)(id)) }
    /// }
    /// Injections.container.register(\.makeAccount) { id in MockAccount(id: id) }
    /// Injections.container.resolve(\.[account: 42])  // MockAccount(id: 42), cached for 42
    /// Injections.container.register(\.makeSession) { user, device in MockSession(user, device) }
    /// ```
    ///
    /// Registering drops what the subscript cached from the function it replaces, for every
    /// argument value. An override of one argument value, `register(\.[account: 42]) { ... }`,
    /// still wins over this one for that value, since it replaces the subscript itself.
    ///
    /// It is the same override as `register(\.makeAccount) { { id in MockAccount(id: id) } }`,
    /// without the outer closure. (A key of a type that is not a function, even one a closure
    /// converts to, such as `any Sendable`, takes ``register(_:file:line:factory:)``: its
    /// closure returns the value.)
    ///
    /// - Parameters:
    ///   - keyPath: The key of function type to override.
    ///   - file: Where the call is, for the message if it is refused; leave the default.
    ///   - line: The line of the call, likewise.
    ///   - factory: Builds the replacement from the arguments; the closure after the call.
    public func register<Function: Sendable>(
        _ keyPath: KeyPath<Injections, Function>, file: StaticString = #fileID,
        line: UInt = #line, arguments factory: Function
    ) {
        register(keyPath, file: file, line: line) { factory }
    }
}
