/// The entry's invariants (`Internal/README.md`, "Entry"), checked in builds made with
/// `-Xswiftc -DINJECTABLEKIT_INTERNAL_CHECKS` (CI's internal-checks step); free otherwise.
extension Entry {
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            let (construction, holds, epoch, storedEpoch) = lock.withLock {
                (self.construction, cell != nil, self.epoch, self.storedEpoch)
            }
            // An instance is kept only if no drop happened since its build started (a drop
            // empties the entry and moves its epoch on).
            precondition(
                !holds || storedEpoch == epoch,
                "InjectableKit: an entry holds an instance built before its last drop")
            // Only a build is waited for: `finish` wakes the waiters of the round it ends.
            precondition(
                !construction.waited || construction.builder(inRound: construction.round) != nil,
                "InjectableKit: an idle entry's round is waited for")
            guard let builder = construction.builder(inRound: construction.round) else { return }
            // A builder never waits for its own build (its factory asking for it is a cycle).
            if case .entry(let entry, let round) = builder.parking.locked(
                rank: .parking, { builder.waitingFor })
            {
                precondition(
                    entry !== self || round != construction.round,
                    "InjectableKit: a builder waits for its own build")
            }
        #endif
    }
}
