/// The entry's invariants (`Internal/README.md`, "Entry"), checked in builds made with
/// `-Xswiftc -DINJECTABLEKIT_INTERNAL_CHECKS` (CI's internal-checks step); free otherwise.
extension Entry {
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            Core.shared.builds.lock.lock()
            defer { Core.shared.builds.lock.unlock() }
            if case .building(let builder) = construction.phase {
                // A builder runs its factory; it never waits for its own entry.
                precondition(builder.waitingFor !== self, "a builder waits for its own entry")
            }
            if let builder = construction.builder, let waited = builder.waitingFor {
                // A builder waits only for another entry that someone else builds.
                precondition(waited !== self && waited.construction.builder !== builder)
            }
        #endif
    }
}
