/// A replacement factory registered for a key or a type.
class AnyOverride: @unchecked Sendable {
    // @unchecked: `valueType` is immutable and `served` atomic; subclasses add only an immutable
    // `@Sendable` closure.

    /// `served`'s word, first among the stored properties so that its address is a fixed
    /// offset in the object (see `AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private final var servedWord: UInt = 0
    /// The type the factory returns: the type of the keys a type override serves.
    let valueType: Any.Type
    /// Whether the key's own scope helper holds what the factory builds (the default), rather
    /// than a scope the override names (`register(_:scope:factory:)`) or none.
    let keepsKeyLifetime: Bool

    init(valueType: Any.Type, keepsKeyLifetime: Bool) {
        self.valueType = valueType
        self.keepsKeyLifetime = keepsKeyLifetime
        AtomicWord.checkInlineWords(&servedWord, of: self)
    }

    /// 1 once the override has served a resolution, else 0.
    private var served: AtomicWord { AtomicWord(inline: 0, of: self) }

    var hasServed: Bool { served.loadRelaxed() != 0 }

    /// Records that the override served a resolution. Loads first, so that an override that
    /// serves many resolutions on many threads is written once.
    func markServed() {
        if served.loadRelaxed() == 0 { served.storeRelaxed(1) }
    }
}

final class Override<Value>: AnyOverride, @unchecked Sendable {
    // @unchecked: `make` is an immutable `@Sendable` closure.
    let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value, keepsKeyLifetime: Bool = true) {
        self.make = make
        super.init(valueType: Value.self, keepsKeyLifetime: keepsKeyLifetime)
    }
}
