/// The (A) rules of `Internal/README.md`, "Entry"; checked only in internal-checks builds.
extension Entry {
    @inline(__always)
    func checkInvariants() {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            let (construction, holds, epoch, storedEpoch) = lock.withLock {
                (self.construction, cell != nil, self.epoch, self.storedEpoch)
            }
            precondition(
                !holds || storedEpoch == epoch,
                "InjectableKit: an entry holds an instance built before its last drop")
            precondition(
                !construction.waited || construction.builder(inRound: construction.round) != nil,
                "InjectableKit: an idle entry's round is waited for")
            guard let builder = construction.builder(inRound: construction.round) else { return }
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
