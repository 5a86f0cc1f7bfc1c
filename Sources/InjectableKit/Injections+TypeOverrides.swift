extension Injections {
    /// A type override in a layer, and whether it has served a resolution: what the testing
    /// traits check, at the end of a test, to report an override that matched no key.
    ///
    /// A type override serves the keys whose declared type is exactly its type. The common
    /// mistake is to register a concrete type, `register { MockService() }`, for keys declared
    /// as a protocol, `any MyServiceType`: it compiles, and serves nothing.
    public enum TypeOverride: Sendable, Hashable {
        /// An override that has served a resolution. `typeName` is the overridden type, as
        /// Swift spells it with its module (`App.MockService`, `any App.MyServiceType`).
        case served(typeName: String)
        /// An override that has served no resolution: its type, and a message that says so,
        /// and how to give the override the type of the keys.
        case unused(typeName: String, message: String)

        init(_ override: AnyOverride) {
            let typeName = InjectableKit.typeName(override.valueType, qualified: true)
            self =
                override.hasServed
                ? .served(typeName: typeName)
                : .unused(
                    typeName: typeName,
                    message: Self.unusedMessage(
                        typeName, isExistential: isExistentialType(override.valueType)))
        }

        /// Says that the override of `typeName` served nothing, and how to give it the type of
        /// the keys.
        private static func unusedMessage(_ typeName: String, isExistential: Bool) -> String {
            let served = "the type override for \(typeName) served no resolution"
            guard !isExistential else {
                return served + ": no key declared exactly `\(typeName)` was resolved (an "
                    + "optional key, `(\(typeName))?`, is another type), or an override for "
                    + "the key itself won"
            }
            let exact = served + ". A type override serves the keys declared with exactly its type"
            // A generic type (an optional, an array) has no one name to put in an example.
            guard !typeName.contains("<"),
                let short = typeName.split(separator: ".").last.map(String.init)
            else { return exact + ": give the factory's result the keys' type with `as`" }
            return exact + ": for keys declared as a protocol, write "
                + "`register { \(short)(...) as any YourProtocol }` or "
                + "`register(as: (any YourProtocol).self) { \(short)(...) }`"
        }
    }
}

extension Injections.LocalOverrides {
    /// The type overrides registered in this layer (by `register { ... }` or
    /// `register(as:_:)` in it), each as served or unused so far.
    ///
    /// ```swift
    /// let layer = Injections.makeOverrides { $0.register { MockService() } }
    /// Injections.withOverrides(layer) { runScreen() }
    /// for case .unused(_, let message) in layer.typeOverrides {
    ///     print(message)
    /// }
    /// ```
    public var typeOverrides: [Injections.TypeOverride] {
        registry.typeOverrides.map(Injections.TypeOverride.init)
    }
}
