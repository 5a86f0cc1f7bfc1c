/// The (A) rules of `Internal/README.md`, "Entry"; checked only in internal-checks builds.
extension Entry {
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            let (holds, epoch, storedEpoch) = lock.withLock {
                (cell != nil, self.epoch, self.storedEpoch)
            }
            precondition(
                !holds || storedEpoch == epoch,
                "InjectableKit: an entry holds an instance built before its last drop")
        #endif
    }
}
