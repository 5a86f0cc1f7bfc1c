import Foundation

/// Who is building an entry's instance, and how the others wait for it: the entry's
/// construction state machine (`Internal/README.md`, "Entry"). Each transition returns what to
/// do once `Core.shared.builds.lock` is let go of.
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
    /// Moves on whenever a build ends or the entry retires: what a waiter waits for. Written
    /// under `Core.shared.builds.lock` and, once a waiter made it, under `waiters`' lock too, so
    /// that a waiter may read it under either.
    private(set) var round: UInt64 = 0
    private var waiters: NSCondition?

    /// What a thread that found no instance does next.
    enum Claim {
        /// It builds: the entry is its until ``finish()``.
        case build
        /// It waits on `condition` for `round` to end, then looks again.
        case wait(round: UInt64, condition: NSCondition)
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
            let condition = waiters ?? NSCondition()
            waiters = condition
            return .wait(round: round, condition: condition)
        }
    }

    /// The builder is done (its instance stored or handed out): the entry is idle again.
    ///
    /// - Returns: The condition to broadcast on, if anyone waits; the round has moved on.
    mutating func finish(by thread: ThreadState) -> NSCondition? {
        guard case .building(let builder) = phase, builder === thread else {
            preconditionFailure("InjectableKit: a build finished by a thread that did not claim it")
        }
        phase = .idle
        return endRound()
    }

    /// Retires the entry unless a thread builds it.
    ///
    /// - Returns: Whether it retired, and the condition to broadcast on, if anyone waits.
    mutating func retireIfIdle() -> (retired: Bool, wake: NSCondition?) {
        switch phase {
        case .building: return (false, nil)
        case .retired: return (true, nil)
        case .idle:
            phase = .retired
            return (true, endRound())
        }
    }

    var isIdle: Bool {
        if case .idle = phase { return true }
        return false
    }

    var isRetired: Bool {
        if case .retired = phase { return true }
        return false
    }

    /// The thread building the instance, if one is.
    var builder: ThreadState? {
        if case .building(let builder) = phase { return builder }
        return nil
    }

    private mutating func endRound() -> NSCondition? {
        guard let waiters else {
            round &+= 1
            return nil
        }
        waiters.lock()
        round &+= 1
        waiters.unlock()
        return waiters
    }
}
