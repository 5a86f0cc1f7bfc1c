/// A scope storage's invariants, checked in builds made with
/// `-Xswiftc -DINJECTABLEKIT_INTERNAL_CHECKS`; free otherwise.
extension ScopeStorage {
    /// Checks that `entry`, just filed or kept, is filed under its own key, and that the count
    /// of forgettable entries (argument values, overrides) fits the entries. Local to one
    /// entry, so that checking after every change stays cheap. Call with `lock` locked.
    @inline(__always)
    func checkInvariants(filing entry: Entry?) {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            if let entry {
                precondition(entries[entry.key] === entry, "an entry is filed under its own key")
            }
            precondition(
                forgettableEntries >= 0 && forgettableEntries <= entries.count,
                "the count of forgettable entries fits the entries")
        #endif
    }
}
