/// A resolved value kept by a scope, in memory that non-generic code can find.
///
/// Reading it back is a load through `storage`: no dynamic cast (tens of nanoseconds for a
/// protocol existential) and no lookup of a generic class's metadata (which reading a field of
/// `Box<Value>` from unspecialised code would need).
class Cell: @unchecked Sendable {
    // @unchecked: `storage` is written once, in the subclass's init, before the cell is shared;
    // handing one instance to every caller is what a scope is for, and the registration's
    // author decides whether that instance is thread-safe.
    // NB: @exclusivity(unchecked): written only in an init, before anything reads it.
    @exclusivity(unchecked) fileprivate(set) final var storage = UnsafeMutableRawPointer(
        bitPattern: 0x10
    ).unsafelyUnwrapped  // a placeholder until the subclass's init says where the value is

    /// Points `storage` at the subclass's first stored property, a `Value`: a class's stored
    /// properties are laid out in declaration order, a subclass's after its superclass's, each
    /// at its type's alignment. So the value lives in the cell, with no allocation of its own.
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

    /// The value as `Any`, to convert it once into a view of another type. Every cell is one
    /// of the subclasses below, which override it (a method rather than a protocol, so that no
    /// conformance is looked up to reach it).
    var anyValue: Any { preconditionFailure("InjectableKit: every cell is a subclass's") }

    /// The class instance the value is or holds, if any. For a cell that does not own its
    /// instance, call only while the instance is alive.
    var heldObject: AnyObject? { classInstance(anyValue) }
}

/// A cell for `value`: one that owns it, or for `object`, the class instance that is its only
/// reference, one that does not keep the instance alive (see ``UnownedCell``).
///
/// A value of a class type gets an ``ObjectCell``, one class for every such type: storing the
/// first instance of a type then instantiates no generic class (thousands of instructions each,
/// paid at a key's first resolution).
func makeCell<Value>(_ value: Value, unownedObject object: AnyObject? = nil) -> Cell {
    if isObjectReference(Value.self) {
        return ObjectCell(unsafeBitCast(value, to: AnyObject.self), owning: object == nil)
    }
    return object.map { UnownedCell(value, object: $0) } ?? StrongCell(value)
}

/// A cell that owns its value.
final class StrongCell<Value>: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`.
    // NB: the first stored property of the cell's own, which `storage` points at.
    private let held: Value

    init(_ value: Value) {
        held = value
        super.init()
        storeInline(Value.self)
    }

    override var anyValue: Any { value(as: Value.self) }
    override var heldObject: AnyObject? { classInstance(value(as: Value.self)) }
}

/// A copy of a value whose only reference is a class instance held weakly elsewhere; the copy
/// does not keep the instance alive.
///
/// Valid only while the instance is alive: read it only while holding a strong reference
/// obtained from the weak one.
final class UnownedCell<Value>: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`; readers keep the instance alive (see above).

    /// - Parameters:
    ///   - value: A value whose only reference is `object` (a class instance, or an optional
    ///     or existential holding one).
    ///   - object: The instance, which the caller keeps alive for the duration of the call.
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

    /// Call only while the instance is alive.
    override var anyValue: Any { value(as: Value.self) }
    override var heldObject: AnyObject? { classInstance(value(as: Value.self)) }
}

/// A cell holding a value of a class type: the instance's reference, which a read as that type
/// loads as it is (one pointer either way). Owning, like ``StrongCell``, or not, like
/// ``UnownedCell``.
final class ObjectCell: Cell, @unchecked Sendable {
    // @unchecked: see `Cell`; a cell that does not own its instance is read only while the
    // instance is alive, as `UnownedCell` is.
    // NB: the cell's first stored property of its own, which `storage` points at. Owning, the
    // cell holds a reference it took itself (given back in `deinit`).
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

    /// The instance, if the cell owns it.
    var ownedObject: AnyObject? { owning ? value(as: AnyObject.self) : nil }

    /// For a cell that does not own its instance, call only while the instance is alive.
    override var anyValue: Any { value(as: AnyObject.self) }
    override var heldObject: AnyObject? { value(as: AnyObject.self) }
}
