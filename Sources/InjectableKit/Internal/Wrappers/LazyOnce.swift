import Foundation

/// The first read of a lazy wrapper (`@LazyInjectable`, `@WeakLazyInjectable`): one
/// resolution per owner, whichever threads race to it, with no lock held while it runs (a
/// resolution may touch the owner). The subclasses keep the value.
///
/// The state is one atomic word:
///
/// | state | word |
/// | --- | --- |
/// | unresolved | `unresolved` (0) |
/// | resolving by thread T | the address of T's `ThreadState` |
/// | resolving by T, waited for | that address, with the `waitedFor` bit |
/// | resolved | `resolved` (1) |
///
/// Transitions, one method per event:
/// - `begin`, a read on T: unresolved → resolving by T (compare-and-swap); T resolves.
/// - `wait`, a read on U ≠ T: resolving by T → resolving by T, waited for (compare-and-swap,
///   under `LazyOnce.condition`); U sleeps on the condition until the word is resolved.
/// - `end`, T has stored the value: resolving by T, waited for or not → resolved (exchange);
///   if it was waited for, T broadcasts under the condition.
/// - A read on T while resolving by T would wait for itself: it stops the program, naming the
///   key (`Failure.reentrantLazyRead`).
/// - A read while resolved reads the value, and changes nothing.
///
/// Invariants:
/// 1. One resolution: only `begin`'s swap from unresolved makes a resolver, and nothing leads
///    back to unresolved. (A)
/// 2. After `init`, only the resolver touches `layer` (`takeLayer`), and only the resolver
///    writes the subclass's value, before `end` publishes resolved (release); other threads
///    read the value only after loading resolved (acquire), and nothing writes it after. (A:
///    only the resolver ends, once; the value is stored once.)
/// 3. No lock is held while the key resolves. A waiter holds `LazyOnce.condition`
///    from its last look at the word until it sleeps, and a resolver that finds the word
///    waited for takes the condition to broadcast: no wake-up is lost.
/// 4. While a thread holds the condition and the word says "resolving by T, waited for", T
///    has not returned from `end` (which needs the condition): its `ThreadState` is alive,
///    and its `waitingFor` and `waitingForLazy` can be read.
/// 5. A reader on the resolving thread itself would wait for ever; so would a circle of
///    threads, each waiting for an entry the next builds or a first read the next resolves (a
///    dependency cycle spread over threads). The first stops at once. For the second, each
///    waiter looks for a circle through itself before it sleeps, and again every
///    `circleCheckInterval`, and stops the program naming the chain. (A thread that waits for
///    an entry looks only through entries: when its wait closes the circle, the lazy waiter's
///    next look finds it.)
@usableFromInline
class LazyOnce: @unchecked Sendable {
    // @unchecked: `state` is atomic, and `layer` is touched only by the resolver (invariant 2).
    // NB: @exclusivity(unchecked): `layer` is touched by one thread at a time (invariant 2), so
    // the run-time exclusivity check would find nothing.
    /// The state word, first among the stored properties so that its address is a fixed offset
    /// in the object (see `AtomicWord.init(inline:of:)`); read and written only as `state`.
    @exclusivity(unchecked) @usableFromInline final var stateWord = LazyOnce.unresolved
    @inlinable final var state: AtomicWord {
        @inline(__always) get { AtomicWord(inline: 0, of: self) }
    }
    /// Where the first read resolves; let go of once it has.
    @exclusivity(unchecked) private final var layer: LayerTicket?

    @usableFromInline static var unresolved: UInt { 0 }
    @usableFromInline static var resolved: UInt { 1 }
    static var waitedFor: UInt { 2 }
    /// Where waiters of every first read sleep: first reads that wait are rare, and a woken
    /// waiter whose read is still unresolved sleeps again.
    static let condition = NSCondition()
    /// How often a waiter looks again for a circle of waiting threads.
    static let circleCheckInterval: TimeInterval = 0.05

    @usableFromInline
    init() {
        layer = LayerTicket.current
        AtomicWord.checkInlineWords(&stateWord, of: self)
    }

    /// The wrapper, as users write it, for messages.
    class var wrapperName: String { "@LazyInjectable" }

    /// What a read does once `begin` returns.
    @usableFromInline
    enum FirstRead {
        /// The value is stored: read it.
        case resolved
        /// This thread resolves the key where it is read, stores the value, then calls
        /// ``end()``.
        case resolve
        /// As `resolve`, in the layer the wrapper was made in (``takeLayer()``).
        case resolveInLayer
    }

    /// Whether the value is stored; if so, it may be read.
    @inlinable
    final var isResolved: Bool {
        state.loadAcquiring() == Self.resolved
    }

    /// A read that found the value not stored: makes this thread the resolver if there is
    /// none, or else waits until the resolver has stored the value.
    ///
    /// - Parameter key: The wrapper's key, to name it if the wait would never end. (Kept by
    ///   the wrapper rather than here: the read has it at hand, without a retain.)
    /// - Returns: Whether this thread resolves the key, and where, or reads the stored value.
    @usableFromInline
    final func begin(for key: AnyKeyPath) -> FirstRead {
        let me = ThreadState.currentAddress
        assert(me & (Self.resolved | Self.waitedFor) == 0, "an object's address is aligned")
        if state.compareExchangeAcquiringOnFailureToo(expected: Self.unresolved, desired: me) {
            return layer == nil ? .resolve : .resolveInLayer
        }
        // Loaded again after the swap failed: a state at least as new as the one it found
        // (the word never goes back to unresolved).
        if state.loadAcquiring() != Self.resolved { wait(for: key, on: ThreadState.current) }
        return .resolved
    }

    /// The layer the wrapper was made in, for its resolver, which lets go of it once it has
    /// resolved. Call after `begin` said `resolveInLayer`.
    final func takeLayer() -> LayerTicket {
        defer { layer = nil }
        return layer.unsafelyUnwrapped
    }

    /// The resolver has stored the value: publishes it, and wakes the threads waiting for it.
    @usableFromInline
    final func end() {
        let previous = state.exchangeAcquiringAndReleasing(Self.resolved)
        assert(
            previous & ~Self.waitedFor == ThreadState.currentAddress,
            "only the resolving thread ends a first read, once")
        guard previous & Self.waitedFor != 0 else { return }
        let condition = Self.condition
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the value is stored; stops the program if that would be never (invariant 5).
    private func wait(for key: AnyKeyPath, on thread: ThreadState) {
        let me = Self.word(of: thread)
        let condition = Self.condition
        condition.lock()
        while true {
            let word = state.loadAcquiring()
            if word == Self.resolved { break }
            assert(word != Self.unresolved, "a first read never goes back to unresolved")
            if word & ~Self.waitedFor == me {
                condition.unlock()
                Failure.reentrantLazyRead(of: key, by: type(of: self).wrapperName, on: thread)
            }
            // Marked first, so that the resolver wakes us; it may have finished meanwhile.
            if word & Self.waitedFor == 0,
                !state.compareExchangeAcquiringOnFailureToo(
                    expected: word, desired: word | Self.waitedFor)
            {
                continue
            }
            // Entries' builders and waits are guarded by `BuildCoordinator.lock`.
            if let circle = BuildCoordinator.lock.withLock({ waitingCircle(from: thread, for: key) }
            ) {
                condition.unlock()
                Failure.crossThreadLazyCycle(circle)
            }
            thread.waitingForLazy = (self, key)
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.circleCheckInterval))
            thread.waitingForLazy = nil
        }
        condition.unlock()
    }

    /// The thread resolving the key while another waits for it. Call with
    /// `LazyOnce.condition` locked; `nil` unless the word is "waited for" (only then is
    /// the thread surely alive: invariant 4).
    final func waitedForResolver() -> ThreadState? {
        let word = state.loadAcquiring()
        guard word != Self.resolved, word & Self.waitedFor != 0 else { return nil }
        let address = UnsafeRawPointer(bitPattern: word & ~Self.waitedFor)!
        return Unmanaged<ThreadState>.fromOpaque(address).takeUnretainedValue()
    }

    /// What a thread in a circle of waiting threads waits for.
    enum Awaited {
        case entry(Entry)
        /// A first read, and its wrapper's key.
        case lazy(LazyOnce, key: AnyKeyPath)
    }

    /// The threads that would wait on each other, each with what it waits for, starting with
    /// `thread` waiting for this read; `nil` when waiting is safe. Call with
    /// `LazyOnce.condition` locked, and the word waited for.
    private func waitingCircle(from thread: ThreadState, for key: AnyKeyPath)
        -> [(ThreadState, Awaited)]?
    {
        var circle: [(ThreadState, Awaited)] = [(thread, .lazy(self, key: key))]
        var next = waitedForResolver()
        while let current = next, circle.count < 10_000 {
            if current === thread { return circle }
            if let entry = current.waitingFor {
                circle.append((current, .entry(entry)))
                next = entry.builder
            } else if let (read, key) = current.waitingForLazy {
                circle.append((current, .lazy(read, key: key)))
                next = read.waitedForResolver()
            } else {
                return nil
            }
        }
        return nil
    }

    /// A state of the table above, for tests.
    enum Phase: Equatable {
        case unresolved
        case resolving(onThisThread: Bool, waitedFor: Bool)
        case resolved
    }

    /// The current state, for tests.
    final var phase: Phase {
        let word = state.loadAcquiring()
        switch word {
        case Self.unresolved: return .unresolved
        case Self.resolved: return .resolved
        default:
            return .resolving(
                onThisThread: word & ~Self.waitedFor == ThreadState.currentAddress,
                waitedFor: word & Self.waitedFor != 0)
        }
    }

    /// The word that says "resolving by `thread`".
    private static func word(of thread: ThreadState) -> UInt {
        let word = UInt(bitPattern: Unmanaged.passUnretained(thread).toOpaque())
        assert(word & (resolved | waitedFor) == 0, "an object's address is aligned")
        return word
    }
}
