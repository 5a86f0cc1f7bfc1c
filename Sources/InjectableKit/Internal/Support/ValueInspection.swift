/// Lets generic code unwrap an `Optional` of any type.
protocol OptionalValue {
    var wrappedAny: Any? { get }
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? { self.map { $0 as Any } }
    static var wrappedType: Any.Type { Wrapped.self }
}

// NB: a cast to a protocol (`as? any OptionalValue`) looks the type's conformance up, and the
// first lookup for each type scans every conformance record of every loaded library: about
// 200,000 instructions with Foundation loaded, once per registration's type. These functions
// ask cheaper questions first (is it an `Optional`, is it a class), so that only optionals are
// cast.

/// Whether a `Value` is one class reference: a class instance, or a class existential without
/// witness tables (`AnyObject`). Where `Value` is known, a constant.
///
/// NB: not `Value.self is AnyObject.Type` alone, which compiles to a call of the type's metadata
/// accessor: code specialised for each class type would differ in that call, so the compiler
/// could not keep one copy of it for all of them (see `Resolver.resolve`).
@inlinable @inline(__always)
func isObjectReference<Value>(_: Value.Type) -> Bool {
    switch _canBeClass(Value.self) {
    case 0: false
    case 1: MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
    default: Value.self is AnyObject.Type  // unspecialised code
    }
}

/// What `value` holds if it is an `Optional` (`.some(nil)`: it is `nil`), also inside an
/// existential (`Any`); `nil` if it is not one.
private func unwrapped<Value>(_ value: Value) -> Any?? {
    // A value of a concrete type that is not `Optional` is not one; an existential is when it
    // holds one.
    guard _isOptional(Value.self) || isOptionalType(type(of: value as Any)) else { return nil }
    return (value as? any OptionalValue).map(\.wrappedAny)
}

/// Whether `value` is `nil` at any depth (`.none`, or `.some` of a `nil`: `Int??.some(nil)`,
/// `Any?.some(nil)`), also inside an existential (`Any`).
func isNil<Value>(_ value: Value) -> Bool {
    if isObjectReference(Value.self) { return false }
    return unwrapped(value).map { wrapped in wrapped.map { isNil($0) } ?? true } ?? false
}

/// The class instance inside `value`, looking through optionals and existentials, or `nil`
/// when `value` is a struct, an enum or a tuple, which cannot be held weakly.
func classInstance<Value>(_ value: Value) -> AnyObject? {
    if isObjectReference(Value.self) { return unsafeBitCast(value, to: AnyObject.self) }
    // An existential (`any Service`, `Any`), whose instance is of its dynamic type. Casts look
    // through existentials; a cast to `AnyObject` needs no conformance lookup.
    let contained = value as Any
    if type(of: contained) is AnyClass { return contained as AnyObject }
    return unwrapped(contained)?.flatMap { classInstance($0) }
}

/// Whether `type` is an `Optional`: a check of its metadata's kind, where a cast to
/// `OptionalValue` would look a conformance up (see above).
///
/// NB: opens the metatype, not the value: in generic code an existential `Value` converted to
/// `Any` is an existential inside an existential, and opening that value gives the inner
/// existential type, while `type(of:)` gives the dynamic type.
private func isOptionalType(_ type: any Any.Type) -> Bool {
    func isOptional<Opened>(_: Opened.Type) -> Bool { _isOptional(Opened.self) }
    return _openExistential(type, do: isOptional)
}

/// Whether `type` is an existential (`any Service`, `any Service<Int>`, `Any`, `AnyObject`),
/// by its metadata's kind: the runtime's `Existential` (0x303) and `ExtendedExistential`
/// (0x307) kinds, which the Swift ABI keeps stable.
func isExistentialType(_ type: any Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    return kind == 0x303 || kind == 0x307
}

/// `type` as a message names it: with `any` before an existential, which Swift prints bare.
///
/// - Parameters:
///   - type: The type.
///   - qualified: Whether to name it with its module (`App.MockService`).
/// - Returns: The name, such as `any App.MyServiceType`.
func typeName(_ type: any Any.Type, qualified: Bool) -> String {
    (isExistentialType(type) ? "any " : "")
        + (qualified ? String(reflecting: type) : String(describing: type))
}

/// Whether a registration declared as `declared` may return what a helper of type `built`
/// makes: the same type, an existential (which a subscript's helper builds a concrete type of),
/// or an optional of either. A subscript's helper keyed by its owner's keypath is the
/// subscript's own resolution only then; called directly in a getter of another type
/// (`AccountPair(a: self[account: 1], ...)`), it builds.
func mayHold(_ declared: any Any.Type, _ built: any Any.Type) -> Bool {
    if declared == built || isExistentialType(declared) { return true }
    guard isOptionalType(declared), let optional = declared as? any OptionalValue.Type else {
        return false
    }
    return mayHold(optional.wrappedType, built)
}

/// Whether values of `type` are class references: a class, or an existential of class-bound
/// protocols (`any ParentType`, `AnyObject`). For an existential, the metadata's flags word,
/// after its kind, has its top bit clear when the existential is class-constrained (Swift ABI).
func isClassBound(_ type: any Any.Type) -> Bool {
    if type is AnyObject.Type { return true }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // Only the plain existential kind (0x303) has this layout; an extended one (`any P<Int>`)
    // is refused.
    guard metadata.load(as: UInt.self) == 0x303 else { return false }
    let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return flags & 0x8000_0000 == 0
}
