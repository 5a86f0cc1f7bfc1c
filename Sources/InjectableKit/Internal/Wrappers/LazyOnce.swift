/// The first read of a lazy wrapper (`@LazyInjectable`, `@WeakLazyInjectable`): one
/// resolution per owner, with no lock held while it runs (a resolution may touch the owner).
/// The subclasses keep the value. States, transitions and invariants: `Internal/README.md`,
/// "A lazy wrapper's first read".
@usableFromInline
class LazyOnce: @unchecked Sendable {
    // @unchecked: `state` is atomic, `key` immutable, and `held` is touched only by the
    // resolver, then under `replacementLock` (invariant 2).
    // NB: @exclusivity(unchecked): `held` is touched by one thread at a time (invariant 2), so
    // the run-time exclusivity check would find nothing.
    /// The state word, first among the stored properties so that its address is a fixed offset
    /// in the object (see `AtomicWord.init(inline:of:)`); read and written only as `state`.
    @exclusivity(unchecked) @usableFromInline final var stateWord = LazyOnce.unresolved
    @inlinable final var state: AtomicWord {
        @inline(__always) get { AtomicWord(inline: 0, of: self) }
    }
    /// Until the first read: the `LayerTicket` of the layer where it resolves, if any (let go
    /// of once it has). Once replaced: the box of the replacing value. (One field for both: a
    /// field more would cost the making of every wrapper.) Spelled `Optional<…>`, which Swift
    /// does not start as `nil` before `init` sets it: `init`'s store releases nothing.
    @exclusivity(unchecked) @usableFromInline final var held: Optional<LazyHeld>
    /// The wrapper's key: what a first read resolves, and what messages name.
    @usableFromInline final let key: AnyKeyPath

    @usableFromInline static var unresolved: UInt { 0 }
    @usableFromInline static var resolved: UInt { 1 }
    @usableFromInline static var waitedFor: UInt { 2 }
    @usableFromInline static var replaced: UInt { 4 }
    /// Guards every wrapper's replacing value (state *replaced*): assignments are rare, and
    /// reads of an assigned wrapper hold it only to copy a reference.
    @usableFromInline static let replacementLock = Lock(rank: .leaf)

    /// Inlined where the wrapper is made, which then calls into the library only for
    /// `capturedLayer()`. (No `Self.` here: an initializer that names its dynamic
    /// `Self` is not inlined into another module.)
    @inlinable @inline(__always)
    init(_ key: AnyKeyPath) {
        self.key = key
        held = capturedLayer()
        AtomicWord.checkInlineWords(&stateWord, of: self)
    }

    /// The word that says "resolving by the current thread": its `ThreadState`'s address (see
    /// `thread(of:)`).
    @usableFromInline
    static var resolvingWord: UInt {
        let me = ThreadState.currentAddress
        assert(me & (Self.resolved | Self.waitedFor) == 0, "an object's address is aligned")
        return me
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
        /// The value was replaced: read the replacing value, under `replacementLock`.
        case replaced
    }

    /// Whether the value is stored; if so, it may be read.
    @inlinable
    final var isResolved: Bool {
        state.loadAcquiring() == Self.resolved
    }

    /// A read that found the value not stored: makes this thread the resolver if there is
    /// none, or else waits until the resolver has stored the value.
    ///
    /// - Returns: Whether this thread resolves the key, and where, or reads the stored value.
    @inlinable @inline(__always)
    final func begin() -> FirstRead {
        let me = Self.resolvingWord
        if state.compareExchangeAcquiringOnFailureToo(expected: Self.unresolved, desired: me) {
            return held == nil ? .resolve : .resolveInLayer
        }
        return settle()
    }

    /// `begin`, when the word was not unresolved: reads the stored value, or waits for it.
    @usableFromInline
    final func settle() -> FirstRead {
        // Loaded again after the swap failed: a state at least as new as the one it found
        // (the word never goes back to unresolved).
        settled ?? wait(on: ThreadState.current)
    }

    /// Whether the value is stored, and, if so, whether it was replaced; `nil` while
    /// unresolved or resolving.
    @usableFromInline
    final var settled: FirstRead? {
        switch state.loadAcquiring() {
        case Self.resolved: .resolved
        case Self.replaced: .replaced
        default: nil
        }
    }

    /// Makes `box` (immutable, holding the new value) the one every read returns from now
    /// on. A first read in progress on another thread is waited for; one in progress on this
    /// thread stops the program, as a read would.
    ///
    /// - Returns: What the wrapper let go of (a layer's ticket, an earlier box), released once
    ///   no lock is held: here, when the caller drops it.
    @discardableResult
    final func replace(with box: LazyHeld) -> LazyHeld? {
        while true {
            let word = state.loadAcquiring()
            guard word == Self.unresolved || word == Self.resolved || word == Self.replaced else {
                _ = wait(on: ThreadState.current)
                continue
            }
            // From unresolved, as a first read: this thread becomes the resolver, and ends
            // replaced.
            if word == Self.unresolved,
                !state.compareExchangeAcquiring(
                    expected: word, desired: ThreadState.currentAddress)
            {
                continue
            }
            let (old, previous) = Self.replacementLock.withLock {
                // Only holders of the lock move resolved or replaced on (invariant 2).
                defer { held = box }
                return (held, state.exchangeAcquiringAndReleasing(Self.replaced))
            }
            if previous & Self.waitedFor != 0 { Self.wakeWaiters(of: previous) }
            return old
        }
    }

    /// The box `replace` put in. Call once replaced.
    @usableFromInline
    final func replacement() -> LazyHeld {
        Self.replacementLock.withLock { held.unsafelyUnwrapped }
    }

    /// The layer the wrapper was made in, for its resolver, which lets go of it once it has
    /// resolved. Call after `begin` said `resolveInLayer`.
    final func takeLayer() -> LayerTicket {
        defer { held = nil }
        return unsafeDowncast(held.unsafelyUnwrapped, to: LayerTicket.self)
    }

    /// The resolver has stored the value: publishes it, and wakes the threads waiting for it.
    @inlinable @inline(__always)
    final func end() {
        let previous = state.exchangeAcquiringAndReleasing(Self.resolved)
        assert(
            previous & ~Self.waitedFor == Self.resolvingWord,
            "only the resolving thread ends a first read, once")
        guard previous & Self.waitedFor != 0 else { return }
        Self.wakeWaiters(of: previous)
    }

    /// Wakes the threads waiting for the first read that the word `previous` says resolved.
    @usableFromInline
    static func wakeWaiters(of previous: UInt) {
        thread(of: previous).wakeWaiters()
    }

    /// Waits until the value is stored; stops the program if that would be never.
    ///
    /// - Returns: Whether the stored value is the first one, or a replacing one.
    private func wait(on thread: ThreadState) -> FirstRead {
        while true {
            let word = state.loadAcquiring()
            if word == Self.resolved || word == Self.replaced { break }
            assert(word != Self.unresolved, "a first read never goes back to unresolved")
            let resolver = Self.thread(of: word)
            if resolver === thread {
                Failure.reentrantLazyRead(of: key, by: type(of: self).wrapperName, on: thread)
            }
            // Marked first, so that the resolver wakes its waiters; it may have ended meanwhile.
            if word & Self.waitedFor != 0
                || state.compareExchangeAcquiringOnFailureToo(
                    expected: word, desired: word | Self.waitedFor)
            {
                thread.wait(for: .lazy(self), on: resolver)
            }
        }
        return state.loadAcquiring() == Self.replaced ? .replaced : .resolved
    }

    /// The thread resolving the key, while one does.
    var resolver: ThreadState? {
        let word = state.loadAcquiring()
        guard word != Self.resolved, word != Self.replaced, word != Self.unresolved else {
            return nil
        }
        return Self.thread(of: word)
    }

    /// The thread a resolving word names. Its state may belong to a later thread by now (a
    /// thread's state is reused, never freed), never to freed memory.
    private static func thread(of word: UInt) -> ThreadState {
        let address = UnsafeRawPointer(bitPattern: word & ~Self.waitedFor).unsafelyUnwrapped
        return Unmanaged<ThreadState>.fromOpaque(address).takeUnretainedValue()
    }
}

/// The ticket of the layer in effect, for a lazy wrapper being made (`LayerTicket.current`):
/// with no layer alive anywhere, one load of the detours word. A function of the library's, not
/// inlined into the module making the wrapper: the word is the library's own symbol, which a
/// module linking the library dynamically cannot reach.
@usableFromInline
func capturedLayer() -> LazyHeld? {
    LayerTicket.current
}

/// What a lazy wrapper's once-state holds besides its value: the layer's ticket until the
/// first read, or a replacing value's box (see `LazyOnce.held`). A class of the library's own,
/// so that the field is released as a native object.
@usableFromInline
class LazyHeld {
    @usableFromInline
    init() {}
}
