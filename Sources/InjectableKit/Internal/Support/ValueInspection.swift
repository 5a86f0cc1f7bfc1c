/// Lets generic code unwrap an `Optional` of any type.
protocol OptionalValue {
    var wrappedAny: Any? { get }
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? { self.map { $0 as Any } }
    static var wrappedType: Any.Type { Wrapped.self }
}

// NB: a cast to a protocol looks a conformance up, a scan of every conformance record at each
// type's first: these functions ask cheaper questions first, so that only optionals are cast.

/// Whether a `Value` is one class reference (a class, or `AnyObject`); a constant where known.
/// NB: not `is AnyObject.Type` alone, which calls the type's metadata accessor: code specialised
/// per class type would differ there, and could not be merged (see `Resolver.resolve`).
@inlinable @inline(__always)
func isObjectReference<Value>(_: Value.Type) -> Bool {
    switch _canBeClass(Value.self) {
    case 0: false
    case 1: MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
    default: Value.self is AnyObject.Type  // unspecialised code
    }
}

/// What `value` holds if it is an `Optional`, also inside an existential; `nil` if it is not one.
private func unwrapped<Value>(_ value: Value) -> Any?? {
    guard _isOptional(Value.self) || isOptionalType(type(of: value as Any)) else { return nil }
    return (value as? any OptionalValue).map(\.wrappedAny)
}

/// Whether `value` is `nil` at any depth (`Int??.some(nil)`), also inside an existential.
func isNil<Value>(_ value: Value) -> Bool {
    if isObjectReference(Value.self) { return false }
    return unwrapped(value).map { wrapped in wrapped.map { isNil($0) } ?? true } ?? false
}

/// The class instance inside `value`, through optionals and existentials, if any.
func classInstance<Value>(_ value: Value) -> AnyObject? {
    if isObjectReference(Value.self) { return unsafeBitCast(value, to: AnyObject.self) }
    // A cast to `AnyObject` looks through existentials, with no conformance lookup.
    let contained = value as Any
    if type(of: contained) is AnyClass { return contained as AnyObject }
    return unwrapped(contained)?.flatMap { classInstance($0) }
}

/// NB: opens the metatype, not the value: an existential `Value` as `Any` is an existential in
/// an existential, whose opened value gives the inner existential type, not the dynamic one.
private func isOptionalType(_ type: any Any.Type) -> Bool {
    func isOptional<Opened>(_: Opened.Type) -> Bool { _isOptional(Opened.self) }
    return _openExistential(type, do: isOptional)
}

/// By the metadata's kind: `Existential` (0x303) or `ExtendedExistential` (0x307), ABI-stable.
func isExistentialType(_ type: any Any.Type) -> Bool {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    return kind == 0x303 || kind == 0x307
}

/// `type` as a message names it: with `any` before an existential, which Swift prints bare.
func typeName(_ type: any Any.Type, qualified: Bool) -> String {
    (isExistentialType(type) ? "any " : "")
        + (qualified ? String(reflecting: type) : String(describing: type))
}

/// Whether a key declared as `declared` may return what a helper builds as `built` (the same
/// type, an existential, or an optional of either): only then is a subscript's helper its own.
func mayHold(_ declared: any Any.Type, _ built: any Any.Type) -> Bool {
    if declared == built || isExistentialType(declared) { return true }
    guard isOptionalType(declared), let optional = declared as? any OptionalValue.Type else {
        return false
    }
    return mayHold(optional.wrappedType, built)
}

/// A class, or a class-bound existential: its metadata's flags word, after the kind, has its top
/// bit clear (Swift ABI).
func isClassBound(_ type: any Any.Type) -> Bool {
    if type is AnyObject.Type { return true }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // Only the plain kind has this layout; an extended one (`any P<Int>`) is refused.
    guard metadata.load(as: UInt.self) == 0x303 else { return false }
    let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
    return flags & 0x8000_0000 == 0
}
