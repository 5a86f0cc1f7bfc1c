import CInjectableAtomics

@testable import InjectableKit

/// Test-only operations on an atomic word: orderings the library itself never asks for, kept
/// so that the tests check every exchange the C target offers.
extension AtomicWord {
    /// Stores `value` and returns the old value.
    func exchangeAcquiring(_ value: UInt) -> UInt { ik_exchange_acquire(address, value) }

    /// Stores `value` and returns the old value.
    func exchangeReleasing(_ value: UInt) -> UInt { ik_exchange_release(address, value) }
}
