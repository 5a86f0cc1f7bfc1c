import CInjectableAtomics

/// The address of a word that `CInjectableAtomics` reads and writes atomically; copies name the
/// same word (`Internal/README.md`, "Locks and their order", on atomics).
@usableFromInline
struct AtomicWord: @unchecked Sendable {
    // @unchecked: the word is only read and written through the atomic operations below.
    @usableFromInline let address: UnsafeMutablePointer<UInt>

    @inlinable @inline(__always)
    init(_ address: UnsafeMutablePointer<UInt>) {
        self.address = address
    }

    @inline(__always)
    init(static name: ik_static_word) {
        address = ik_static_word_address(name)
    }

    /// The word at `index` among the `UInt`s (a tuple or one) that `object`'s class, with no
    /// superclass, declares first: stored properties are laid out in declaration order.
    @inlinable @inline(__always)
    init(inline index: Int, of object: AnyObject) {
        address =
            _getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: UInt.self) + index
    }

    /// Asserts, in `object`'s `init`, that its inline words (`storage`) are where
    /// ``init(inline:of:)`` finds them.
    @inlinable @inline(__always)
    static func checkInlineWords(_ storage: UnsafeMutableRawPointer, of object: AnyObject) {
        assert(
            storage == _getUnsafePointerToStoredProperties(object),
            "InjectableKit: an object's inline atomic words are its first stored property")
    }

    @inlinable @inline(__always)
    func loadRelaxed() -> UInt { ik_load_relaxed(address) }

    @inlinable @inline(__always)
    func loadAcquiring() -> UInt { ik_load_acquire(address) }

    @inline(__always)
    func loadSequentiallyConsistent() -> UInt { ik_load_seq_cst(address) }

    @inline(__always)
    func storeRelaxed(_ value: UInt) { ik_store_relaxed(address, value) }

    @inline(__always)
    func storeReleasing(_ value: UInt) { ik_store_release(address, value) }

    @inline(__always)
    func storeSequentiallyConsistent(_ value: UInt) { ik_store_seq_cst(address, value) }

    @inlinable @inline(__always)
    func exchangeAcquiringAndReleasing(_ value: UInt) -> UInt {
        ik_exchange_acq_rel(address, value)
    }

    /// Relaxed if it fails.
    @inlinable @inline(__always)
    func compareExchangeAcquiring(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_acquire(address, expected, desired)
    }

    /// Relaxed if it fails.
    @inline(__always)
    func compareExchangeReleasing(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_release(address, expected, desired)
    }

    @inlinable @inline(__always)
    func compareExchangeAcquiringOnFailureToo(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_acquire_acquire(address, expected, desired)
    }

    // The adds and subtracts return the old value.
    @inline(__always) @discardableResult
    func wrappingAddRelaxed(_ value: UInt) -> UInt { ik_fetch_add_relaxed(address, value) }

    @inline(__always) @discardableResult
    func wrappingAddAcquiringAndReleasing(_ value: UInt) -> UInt {
        ik_fetch_add_acq_rel(address, value)
    }

    @inline(__always) @discardableResult
    func wrappingAddSequentiallyConsistent(_ value: UInt) -> UInt {
        ik_fetch_add_seq_cst(address, value)
    }

    @inline(__always) @discardableResult
    func wrappingSubtractRelaxed(_ value: UInt) -> UInt { ik_fetch_sub_relaxed(address, value) }

    @inline(__always)
    func setBitsRelaxed(_ mask: UInt) { ik_fetch_or_relaxed(address, mask) }

    @inline(__always)
    func clearBitsRelaxed(_ mask: UInt) { ik_fetch_and_relaxed(address, ~mask) }

    @inline(__always)
    var boolAcquiring: Bool { loadAcquiring() != 0 }
}

/// The next value of a 64-bit static counter: 1, 2, and so on, never repeated.
@inline(__always)
func nextSerial(_ counter: ik_static_counter) -> UInt64 {
    ik_static_counter_next(counter)
}
