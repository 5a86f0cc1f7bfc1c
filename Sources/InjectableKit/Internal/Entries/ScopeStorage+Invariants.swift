/// Checked only in internal-checks builds.
extension ScopeStorage {
    /// Call with `lock` locked.
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            precondition(
                forgettableEntries >= 0 && forgettableEntries <= entries.count,
                "the count of forgettable entries fits the entries")
        #endif
    }
}
