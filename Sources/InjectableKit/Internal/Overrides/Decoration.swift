/// A key's helper's `decorate:`, run on its overrides' values too (README, "Overrides keep their
/// key's lifetime and decoration"); typed by the helper's value, which need not be the key's.
class AnyDecoration: @unchecked Sendable {
    // @unchecked: the subclass adds only an immutable `@Sendable` closure.

    /// Returns whether `value` was of the decorated type, and so decorated.
    func apply<Value>(to value: inout Value) -> Bool { false }

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
        // The key's type wraps the helper's (an existential, an optional): unwrapped and back.
        guard var decorated = value as? Decorated else { return false }
        decorate(&decorated)
        guard let back = decorated as? Value else { return false }
        value = back
        return true
    }
}
