/// A scope storage's invariants, checked in builds made with
/// `-Xswiftc -DINJECTABLEKIT_INTERNAL_CHECKS`; free otherwise.
extension ScopeStorage {
    /// Checks that the count of forgettable entries (argument values, overrides) fits the
    /// entries. Call with `lock` locked.
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            precondition(
                forgettableEntries >= 0 && forgettableEntries <= entries.count,
                "the count of forgettable entries fits the entries")
        #endif
    }
}
