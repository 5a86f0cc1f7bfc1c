import Synchronization

/// A replacement factory registered for a key or a type.
class AnyOverride: @unchecked Sendable {
    // @unchecked: `valueType` is immutable and `served` atomic; subclasses add only an immutable
    // `@Sendable` closure.

    /// The type the factory returns: the type of the keys a type override serves.
    let valueType: Any.Type
    /// Whether the override has served a resolution.
    private let served = Atomic<Bool>(false)

    init(valueType: Any.Type) {
        self.valueType = valueType
    }

    var hasServed: Bool { served.load(ordering: .relaxed) }

    /// Records that the override served a resolution. Loads first, so that an override that
    /// serves many resolutions on many threads is written once.
    func markServed() {
        if !served.load(ordering: .relaxed) { served.store(true, ordering: .relaxed) }
    }
}

final class Override<Value>: AnyOverride, @unchecked Sendable {
    // @unchecked: `make` is an immutable `@Sendable` closure.
    let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        super.init(valueType: Value.self)
    }
}
