import Foundation

/// Another thread's build of an entry (in its `round`), or its first read of a lazy wrapper.
enum Awaited {
    case entry(Entry, round: UInt64)
    case lazy(LazyOnce)

    /// The thread building it, while this wait is current; `nil` once it has ended.
    var builder: ThreadState? {
        switch self {
        case .entry(let entry, let round): entry.builder(inRound: round)
        case .lazy(let once): once.resolver
        }
    }
}

/// Waiting for another thread's build (`Internal/README.md`, "Waiting and cycles").
extension ThreadState {
    /// Sleeps until `builder` has ended the build, or stops on a circle of waiting threads.
    func wait(for awaited: Awaited, on builder: ThreadState) {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            precondition(builder !== self, "InjectableKit: a thread waits for its own build")
        #endif
        parking.locked(rank: .parking) {
            #if INJECTABLEKIT_INTERNAL_CHECKS
                precondition(waitingFor == nil, "InjectableKit: a thread waits for two builds")
            #endif
            waitingFor = awaited
        }
        if let circle = waitingCircle(from: awaited) { Failure.crossThreadCycle(circle) }
        // The builder wakes its parking's sleepers after its build ends, under this lock.
        builder.parking.locked(rank: .parking) {
            while awaited.builder != nil { builder.parking.wait() }
        }
        parking.locked(rank: .parking) { waitingFor = nil }
    }

    /// Wakes the threads waiting for a build of this thread's that has just ended.
    func wakeWaiters() {
        parking.locked(rank: .parking) { parking.broadcast() }
    }

    /// The circle of waiting threads through this one, if any, each with what it waits for.
    private func waitingCircle(from awaited: Awaited) -> [(ThreadState, Awaited)]? {
        var circle = [(self, awaited)]
        var next = awaited
        while circle.count < 10_000, let builder = next.builder {
            if builder === self { return circle }
            // Read again after the builder's wait: the same build all along.
            guard let waited = builder.parking.locked(rank: .parking, { builder.waitingFor }),
                next.builder === builder
            else { return nil }
            circle.append((builder, waited))
            next = waited
        }
        return nil
    }
}
