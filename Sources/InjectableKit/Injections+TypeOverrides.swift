extension Injections {
    /// A type override in a layer, and whether it has served a resolution: what the testing
    /// traits check, at the end of a test, to report an override that matched no key.
    ///
    /// A type override serves the keys whose declared type is exactly its type. The common
    /// mistake is to register a concrete type, `register { MockService() }`, for keys declared
    /// as a protocol, `any MyServiceType`: it compiles, and serves nothing.
    public struct TypeOverride: Sendable, Hashable {
        /// The overridden type, as Swift spells it with its module (`App.MockService`,
        /// `any App.MyServiceType`).
        public let typeName: String
        /// Whether the override has served a resolution.
        public let hasServed: Bool
        /// Whether the type is a protocol's existential (`any MyServiceType`).
        let isExistential: Bool

        init(_ override: AnyOverride) {
            isExistential = isExistentialType(override.valueType)
            typeName = InjectableKit.typeName(override.valueType, qualified: true)
            hasServed = override.hasServed
        }

        /// Says that the override served nothing, and how to give it the type of the keys.
        public var unusedMessage: String {
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
    /// `register(as:_:)` in it), each with whether it has served a resolution.
    ///
    /// ```swift
    /// let layer = Injections.makeOverrides { $0.register { MockService() } }
    /// Injections.withOverrides(layer) { runScreen() }
    /// for unused in layer.typeOverrides where !unused.hasServed {
    ///     print(unused.unusedMessage)
    /// }
    /// ```
    public var typeOverrides: [Injections.TypeOverride] {
        registry.typeOverrides.map(Injections.TypeOverride.init)
    }
}
