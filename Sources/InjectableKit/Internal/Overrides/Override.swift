/// A replacement factory registered for a key or a type.
class AnyOverride: @unchecked Sendable {
    // @unchecked: `valueType` and `scope` are immutable and `served` atomic; subclasses add
    // only an immutable `@Sendable` closure.

    /// `served`'s word, first among the stored properties so that its address is a fixed
    /// offset in the object (see `AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private final var servedWord: UInt = 0
    /// The type the factory returns: the type of the keys a type override serves.
    let valueType: Any.Type
    /// The scope the override names (`register(_:scope:factory:)`), which holds what the
    /// factory builds; `nil` (the default) for the key's own scope helper's.
    let scope: Injections.Scope?

    init(valueType: Any.Type, scope: Injections.Scope?) {
        self.valueType = valueType
        self.scope = scope
        AtomicWord.checkInlineWords(&servedWord, of: self)
    }

    /// Where the helper that keeps an instance of an override with a scope of its own is: one
    /// site for every such override, each its own registration (see `EntryKey`).
    static let scopeSite = Site(
        "InjectableKit/Injections+Overrides.swift", "register(_:scope:factory:)", 1, 1)

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

    init(_ make: @escaping @Sendable () -> Value, scope: Injections.Scope? = nil) {
        self.make = make
        super.init(valueType: Value.self, scope: scope)
    }
}
