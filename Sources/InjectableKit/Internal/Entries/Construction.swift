/// Who is building an entry's instance: the entry's construction state machine, under the
/// entry's lock (`Internal/README.md`, "Entry"). Each transition returns what to do once the
/// lock is let go of.
struct Construction {
    enum Phase {
        /// Nobody builds: a thread that finds no instance may claim the build.
        case idle
        /// `builder` runs the factory; others wait for the round to end.
        case building(builder: ThreadState)
        /// Its scope forgot the entry: it never builds or holds an instance again.
        case retired
    }

    private(set) var phase = Phase.idle
    /// Moves on whenever a build ends: what a waiter waits for.
    private(set) var round: UInt64 = 0
    /// Whether a thread waits for this round's build.
    private(set) var waited = false

    /// What a thread that found no instance does next.
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

    /// `thread` found no instance: it builds, or waits for the builder.
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

    /// The builder is done (its instance stored or handed out): the entry is idle again.
    ///
    /// - Returns: Whether anyone waits, to be woken on the builder's parking.
    mutating func finish(by thread: ThreadState) -> Bool {
        guard case .building(let builder) = phase, builder === thread else {
            preconditionFailure("InjectableKit: a build finished by a thread that did not claim it")
        }
        phase = .idle
        round &+= 1
        defer { waited = false }
        return waited
    }

    /// Retires the entry unless a thread builds it (nobody waits for an idle entry).
    ///
    /// - Returns: Whether it is retired.
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

    /// The thread building the instance in `round`, if that build has not ended.
    func builder(inRound round: UInt64) -> ThreadState? {
        guard case .building(let builder) = phase, self.round == round else { return nil }
        return builder
    }
}
