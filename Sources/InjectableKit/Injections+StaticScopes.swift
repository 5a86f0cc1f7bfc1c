// The static form of `shared`, for static code that has no `Injections` value: the seed's
// `static func registerMockServices() { container.register { self.shared(MockService()) } }`.
extension Injections {
    /// The static form of ``shared(_:decorate:file:function:line:column:)-method``:
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
        container.shared(make(), file: file, function: function, line: line, column: column)
    }
}
