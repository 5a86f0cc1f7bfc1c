/// A stored value that can be read back as `Any`, to build a view of it in another type.
protocol ValueCell: AnyObject {
    var anyValue: Any { get }
}

/// A reference cell for a resolved value, so that scopes store any type, existentials included,
/// and read it back with `unsafeDowncast` instead of a dynamic cast.
final class Box<Value>: ValueCell, @unchecked Sendable {
    // @unchecked: `value` is immutable; handing the same instance to every caller is what a
    // scope is for, and the registration's author decides whether that instance is thread-safe.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    var anyValue: Any { value }
}

/// A copy of a value whose only reference is a class instance held weakly elsewhere, that does
/// not keep the instance alive.
///
/// Reading it back needs no dynamic cast (which costs tens of nanoseconds for a protocol
/// existential), but it is valid only while the instance is alive: read it only while holding
/// a strong reference obtained from the weak one.
final class UnownedBox<Value>: ValueCell, @unchecked Sendable {
    // @unchecked: immutable after init; readers hold the instance alive (see above).
    private let storage: UnsafeMutablePointer<Value>

    /// - Parameters:
    ///   - value: A value whose only reference is `object` (a class instance, or an optional
    ///     or existential holding one).
    ///   - object: The instance, which the caller keeps alive for the duration of the call.
    init(_ value: Value, object: AnyObject) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        // The copy retained `object` once; give that back, so the copy does not own it.
        Unmanaged.passUnretained(object).release()
    }

    deinit {
        storage.deallocate()  // not deinitialize: the copy owns no reference
    }

    /// The value; call only while the instance is alive.
    var value: Value { storage.pointee }

    var anyValue: Any { value }
}

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
