/// A key's decoration (its scope helper's `decorate:`), as the probe that learns the key's
/// lifetime finds it, so that the values its overrides build are decorated too (see
/// `Resolver.serve`). Typed by the helper's value, which need not be the key's: a helper that
/// builds `LiveLogger` for an `any Logger` key decorates `LiveLogger`s only.
class AnyDecoration: @unchecked Sendable {
    // @unchecked: the subclass adds only an immutable `@Sendable` closure.

    /// Decorates `value`, if it is of the decorated type: returns whether it was.
    func apply<Value>(to value: inout Value) -> Bool { false }

    /// The type the decoration takes, for the message when an override's value is not one.
    var decoratedType: Any.Type { Never.self }
}

final class Decoration<Decorated>: AnyDecoration, @unchecked Sendable {
    // @unchecked: `decorate` is an immutable `@Sendable` closure.
    let decorate: @Sendable (inout Decorated) -> Void

    init(_ decorate: @escaping @Sendable (inout Decorated) -> Void) {
        self.decorate = decorate
    }

    override var decoratedType: Any.Type { Decorated.self }

    override func apply<Value>(to value: inout Value) -> Bool {
        if Value.self == Decorated.self {
            withUnsafeMutablePointer(to: &value) { pointer in
                pointer.withMemoryRebound(to: Decorated.self, capacity: 1) { decorate(&$0.pointee) }
            }
            return true
        }
        // The key's type holds the helper's (an existential, an optional): decorated as the
        // helper's type, and put back.
        guard var decorated = value as? Decorated else { return false }
        decorate(&decorated)
        guard let back = decorated as? Value else { return false }
        value = back
        return true
    }
}
