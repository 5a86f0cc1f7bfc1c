import CInjectableAtomics

/// A word read and written atomically, at an address that never moves: the library's one
/// atomic type, the same code on every platform (the C target `CInjectableAtomics`, whose
/// atomic builtins the compiler inlines here).
///
/// A view of a word kept elsewhere, holding only its address, so copies of it name the same
/// word. The word is one of:
/// - the library's static words (``init(static:)``), in the C target, at fixed addresses;
/// - words an object keeps inline, as the first of its class's stored properties
///   (``init(inline:of:)``), where the fast path reads them without following a pointer;
/// - words their owner allocated (`Lock`, `Slots`).
@usableFromInline
struct AtomicWord: @unchecked Sendable {
    // @unchecked: the word is only read and written through the atomic operations below.
    @usableFromInline let address: UnsafeMutablePointer<UInt>

    @inlinable @inline(__always)
    init(_ address: UnsafeMutablePointer<UInt>) {
        self.address = address
    }

    /// One of the library's static words.
    @inline(__always)
    init(static name: ik_static_word) {
        address = ik_static_word_address(name)
    }

    /// The word at `index` among the words that `object`'s class declares first: a stored
    /// property `InlineWords` (a `UInt` or a tuple of them) before any other, in a class with no
    /// superclass. Swift lays out a class's stored properties in declaration order after the
    /// object's header (the ABI's class layout), which is where
    /// `_getUnsafePointerToStoredProperties` points; each such class checks this in its `init`
    /// in debug builds (``checkInlineWords(_:of:)``).
    @inlinable @inline(__always)
    init(inline index: Int, of object: AnyObject) {
        address =
            _getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: UInt.self) + index
    }

    /// Asserts that `storage`, the address of `object`'s first stored property (its inline
    /// words, taken with `&` in its `init`), is where ``init(inline:of:)`` finds them.
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

    /// Stores `value` and returns the old value.
    @inlinable @inline(__always)
    func exchangeAcquiringAndReleasing(_ value: UInt) -> UInt {
        ik_exchange_acq_rel(address, value)
    }

    /// Stores `desired` if the word holds `expected` (acquiring if so, relaxed if not), and
    /// says whether it did.
    @inlinable @inline(__always)
    func compareExchangeAcquiring(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_acquire(address, expected, desired)
    }

    /// Stores `desired` if the word holds `expected` (releasing if so, relaxed if not), and
    /// says whether it did.
    @inline(__always)
    func compareExchangeReleasing(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_release(address, expected, desired)
    }

    /// Stores `desired` if the word holds `expected`, acquiring either way, and says whether
    /// it did.
    @inlinable @inline(__always)
    func compareExchangeAcquiringOnFailureToo(expected: UInt, desired: UInt) -> Bool {
        ik_compare_exchange_acquire_acquire(address, expected, desired)
    }

    /// Adds `value`, wrapping, and returns the old value.
    @inline(__always) @discardableResult
    func wrappingAddRelaxed(_ value: UInt) -> UInt { ik_fetch_add_relaxed(address, value) }

    /// Adds `value`, wrapping, and returns the old value.
    @inline(__always) @discardableResult
    func wrappingAddAcquiringAndReleasing(_ value: UInt) -> UInt {
        ik_fetch_add_acq_rel(address, value)
    }

    /// Adds `value`, wrapping, and returns the old value.
    @inline(__always) @discardableResult
    func wrappingAddSequentiallyConsistent(_ value: UInt) -> UInt {
        ik_fetch_add_seq_cst(address, value)
    }

    /// Subtracts `value`, wrapping, and returns the old value.
    @inline(__always) @discardableResult
    func wrappingSubtractRelaxed(_ value: UInt) -> UInt { ik_fetch_sub_relaxed(address, value) }

    /// Sets the bits of `mask` (relaxed).
    @inline(__always)
    func setBitsRelaxed(_ mask: UInt) { ik_fetch_or_relaxed(address, mask) }

    /// Clears the bits of `mask` (relaxed).
    @inline(__always)
    func clearBitsRelaxed(_ mask: UInt) { ik_fetch_and_relaxed(address, ~mask) }

    /// A word that holds 0 or 1, as a `Bool`.
    @inline(__always)
    var boolAcquiring: Bool { loadAcquiring() != 0 }
}

/// A new value of one of the library's 64-bit static counters: 1, then 2, and so on.
@inline(__always)
func nextSerial(_ counter: ik_static_counter) -> UInt64 {
    ik_static_counter_next(counter)
}
