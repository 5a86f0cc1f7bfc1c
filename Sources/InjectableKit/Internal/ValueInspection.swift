/// Lets generic code ask whether a value is an `Optional` holding `nil`, and unwrap it.
protocol OptionalValue {
    var isNil: Bool { get }
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
    var wrappedAny: Any? { self.map { $0 as Any } }
}

// NB: a cast to a protocol (`as? any OptionalValue`) looks the type's conformance up, and the
// first lookup for each type scans every conformance record of every loaded library: about
// 200,000 instructions with Foundation loaded, once per registration's type. These functions
// ask cheaper questions first (is it an `Optional`, is it a class), so that only optionals are
// cast.

/// Whether `value` is `nil` (of any optional depth).
func isNil<Value>(_ value: Value) -> Bool {
    guard _isOptional(Value.self) else { return false }
    return (value as? any OptionalValue)?.isNil ?? false
}

/// The class instance inside `value`, looking through optionals and existentials, or `nil`
/// when `value` is a struct, an enum or a tuple, which cannot be held weakly.
func classInstance<Value>(_ value: Value) -> AnyObject? {
    if Value.self is AnyObject.Type { return unsafeBitCast(value, to: AnyObject.self) }
    if _isOptional(Value.self) {
        return (value as? any OptionalValue)?.wrappedAny.flatMap { classInstance($0) }
    }
    // An existential (`any Service`, `Any`), whose instance is of its dynamic type. Casts look
    // through existentials; a cast to `AnyObject` needs no conformance lookup.
    let contained = value as Any
    if type(of: contained) is AnyClass { return contained as AnyObject }
    return (contained as? any OptionalValue)?.wrappedAny.flatMap { classInstance($0) }
}
