/// A replacement factory registered for a key or a type.
class AnyOverride: @unchecked Sendable {
    // @unchecked: `served` is atomic, the rest immutable; subclasses add an immutable closure.

    /// First stored property, so its word sits at a fixed offset (`AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private final var servedWord: UInt = 0
    /// The type the factory returns: the type of the keys a type override serves.
    let valueType: Any.Type
    /// The scope `register(_:scope:factory:)` names; `nil` keeps the key's own helper's.
    let scope: Injections.Scope?

    init(valueType: Any.Type, scope: Injections.Scope?) {
        self.valueType = valueType
        self.scope = scope
        AtomicWord.checkInlineWords(&servedWord, of: self)
    }

    /// The site of every override with a scope of its own, each its own registration.
    static let scopeSite = Site(
        "InjectableKit/Injections+Overrides.swift", "register(_:scope:factory:)", 1, 1)

    private var served: AtomicWord { AtomicWord(inline: 0, of: self) }

    var hasServed: Bool { served.loadRelaxed() != 0 }

    /// Loads first, so that an override serving many resolutions on many threads is written once.
    func markServed() {
        if served.loadRelaxed() == 0 { served.storeRelaxed(1) }
    }
}

final class Override<Value>: AnyOverride, @unchecked Sendable {
    // @unchecked: `make` is an immutable `@Sendable` closure.
    let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value, scope: Injections.Scope? = nil) {
        self.make = make
        super.init(valueType: Value.self, scope: scope)
    }
}
