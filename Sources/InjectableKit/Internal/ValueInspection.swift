/// Lets generic code ask whether a value is an `Optional` holding `nil`, and unwrap it.
protocol OptionalValue {
    var isNil: Bool { get }
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
    var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Whether `value` is `nil` (of any optional depth).
func isNil<Value>(_ value: Value) -> Bool {
    (value as? any OptionalValue)?.isNil ?? false
}

/// The class instance inside `value`, looking through optionals and existentials, or `nil`
/// when `value` is a struct, an enum or a tuple, which cannot be held weakly.
func classInstance(_ value: Any) -> AnyObject? {
    if let optional = value as? any OptionalValue {
        return optional.wrappedAny.flatMap(classInstance)
    }
    guard type(of: value) is AnyClass else { return nil }
    return value as AnyObject
}
