/// Who builds an entry's instance, under its lock (`Internal/README.md`, "Entry"); each
/// transition returns what to do once the lock is let go of.
struct Construction {
    enum Phase {
        case idle
        case building(builder: ThreadState)
        case retired
    }

    private(set) var phase = Phase.idle
    /// Moves on whenever a build ends: what a waiter waits for.
    private(set) var round: UInt64 = 0
    private(set) var waited = false

    enum Claim {
        /// It builds: the entry is its until ``finish(by:)``.
        case build
        /// It waits for `builder` to end `round` (`ThreadState.wait(for:on:)`), then looks again.
        case wait(builder: ThreadState, round: UInt64)
        /// It asks its scope for the entry that replaced this one.
        case retired
        /// Its own factory asked for the instance it is building: a cycle.
        case reentrant
    }

    mutating func claim(by thread: ThreadState) -> Claim {
        switch phase {
        case .retired:
            return .retired
        case .idle:
            phase = .building(builder: thread)
            return .build
        case .building(let builder):
            if builder === thread { return .reentrant }
            waited = true
            return .wait(builder: builder, round: round)
        }
    }

    /// Returns whether anyone waits, to be woken on the builder's `parking`.
    mutating func finish(by thread: ThreadState) -> Bool {
        guard case .building(let builder) = phase, builder === thread else {
            preconditionFailure("InjectableKit: a build finished by a thread that did not claim it")
        }
        phase = .idle
        round &+= 1
        defer { waited = false }
        return waited
    }

    /// Returns whether it is retired: not while building (nobody waits for an idle entry).
    mutating func retireIfIdle() -> Bool {
        switch phase {
        case .building: return false
        case .retired: return true
        case .idle:
            phase = .retired
            return true
        }
    }

    var isIdle: Bool {
        if case .idle = phase { return true }
        return false
    }

    func builder(inRound round: UInt64) -> ThreadState? {
        guard case .building(let builder) = phase, self.round == round else { return nil }
        return builder
    }
}
