/// A value a scope keeps, which non-generic code reads with one load through `storage`: no
/// dynamic cast, and no lookup of a generic class's metadata.
class Cell: @unchecked Sendable {
    // @unchecked: `storage` is written in the subclass's init, before the cell is shared; whether
    // the instance is thread-safe is the registration's author's to decide.
    // NB: @exclusivity(unchecked): written only in an init, before anything reads it.
    @exclusivity(unchecked) fileprivate(set) final var storage = UnsafeMutableRawPointer(
        bitPattern: 0x10
    ).unsafelyUnwrapped  // a placeholder until the subclass's init says where the value is

    /// Points `storage` at the subclass's first stored property, a `Value`: stored properties are
    /// laid out in declaration order, after the superclass's, each at its type's alignment.
    final func storeInline<Value>(_: Value.Type) {
        let object = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        // Where `Cell`'s own stored property, `storage`, ends.
        let end =
            _getUnsafePointerToStoredProperties(self) - object
            + MemoryLayout<UnsafeMutableRawPointer>.stride
        let alignment = MemoryLayout<Value>.alignment
        storage = object + ((end + alignment - 1) & ~(alignment - 1))  // a power of two
    }

    /// The value; `Value` must be the type the cell was made with.
    @inline(__always)
    final func value<Value>(as _: Value.Type) -> Value {
        storage.assumingMemoryBound(to: Value.self).pointee
    }

    /// For a view's one cast; a method, not a protocol, so that no conformance is looked up.
    var anyValue: Any { preconditionFailure("InjectableKit: every cell is a subclass's") }

    /// The class instance the value is or holds; for an unowned cell, call while it is alive.
    var heldObject: AnyObject? { classInstance(anyValue) }
}

/// A cell owning `value`, or, given `object` (its only reference), one not keeping it alive.
/// A class type's value gets an ``ObjectCell``, one class for all: no generic class to instantiate.
func makeCell<Value>(_ value: Value, unownedObject object: AnyObject? = nil) -> Cell {
    if isObjectReference(Value.self) {
        return ObjectCell(unsafeBitCast(value, to: AnyObject.self), owning: object == nil)
    }
    return object.map { UnownedCell(value, object: $0) } ?? StrongCell(value)
}

final class StrongCell<Value>: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`.
    // NB: the cell's first stored property, which `storage` points at.
    private let held: Value

    init(_ value: Value) {
        held = value
        super.init()
        storeInline(Value.self)
    }

    override var anyValue: Any { value(as: Value.self) }
}

/// A copy of a value whose only reference is an instance held weakly elsewhere, not keeping it
/// alive: read it only while holding a strong reference from the weak one.
final class UnownedCell<Value>: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`; readers keep the instance alive (see above).
    init(_ value: Value, object: AnyObject) {
        let typed = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        typed.initialize(to: value)
        // The copy retained `object` once; give that back, so the copy does not own it.
        Unmanaged.passUnretained(object).release()
        super.init()
        storage = UnsafeMutableRawPointer(typed)
    }

    deinit {
        storage.deallocate()  // not deinitialize: the copy owns no reference
    }

    override var anyValue: Any { value(as: Value.self) }
}

/// A value of a class type, as its reference: owned like ``StrongCell``'s or not, like
/// ``UnownedCell``'s.
final class ObjectCell: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`; unowned, it is read only while the instance lives, as `UnownedCell`.
    // NB: the cell's first stored property, which `storage` points at; owning, retained by hand.
    private unowned(unsafe) let object: AnyObject
    private let owning: Bool

    init(_ object: AnyObject, owning: Bool) {
        self.object = object
        if owning { _ = Unmanaged.passRetained(object) }
        self.owning = owning
        super.init()
        storeInline(AnyObject.self)
        assert(
            storage.load(as: UnsafeRawPointer.self)
                == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()),
            "InjectableKit: an object cell's reference follows the cell's storage pointer")
    }

    deinit {
        if owning { Unmanaged.passUnretained(object).release() }
    }

    var ownedObject: AnyObject? { owning ? value(as: AnyObject.self) : nil }

    override var anyValue: Any { value(as: AnyObject.self) }
    override var heldObject: AnyObject? { value(as: AnyObject.self) }
}
