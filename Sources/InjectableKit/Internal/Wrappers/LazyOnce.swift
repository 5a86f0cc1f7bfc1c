/// A lazy wrapper's first read, whose value the subclasses keep (`Internal/README.md`, "A lazy
/// wrapper's first read").
@usableFromInline
class LazyOnce: @unchecked Sendable {
    // @unchecked: `state` is atomic, `key` immutable, and `held` is kept apart by invariant 2.
    // NB: @exclusivity(unchecked): one thread at a time touches `held` (invariant 2).
    /// The first stored property: see `AtomicWord.init(inline:of:)`; used only as `state`.
    @exclusivity(unchecked) @usableFromInline final var stateWord = LazyOnce.unresolved
    @inlinable final var state: AtomicWord {
        @inline(__always) get { AtomicWord(inline: 0, of: self) }
    }
    /// The layer's ticket until the first read; once replaced, the replacing value's box.
    // NB: `Optional<…>`: Swift does not start it as `nil`, so `init`'s store releases nothing.
    @exclusivity(unchecked) @usableFromInline final var held: Optional<LazyHeld>
    @usableFromInline final let key: AnyKeyPath

    @usableFromInline static var unresolved: UInt { 0 }
    @usableFromInline static var resolved: UInt { 1 }
    @usableFromInline static var waitedFor: UInt { 2 }
    @usableFromInline static var replaced: UInt { 4 }
    @usableFromInline static let replacementLock = Lock(rank: .leaf)

    // No `Self.` here: an initializer naming its dynamic `Self` is not inlined into another module.
    @inlinable @inline(__always)
    init(_ key: AnyKeyPath) {
        self.key = key
        held = capturedLayer()
        AtomicWord.checkInlineWords(&stateWord, of: self)
    }

    /// "Resolving by the current thread": its `ThreadState`'s address.
    @usableFromInline
    static var resolvingWord: UInt {
        let me = ThreadState.currentAddress
        assert(me & (Self.resolved | Self.waitedFor) == 0, "an object's address is aligned")
        return me
    }

    /// For messages.
    class var wrapperName: String { "@LazyInjectable" }

    @usableFromInline
    enum FirstRead {
        case resolved
        /// This thread resolves the key where it is read, stores the value, then calls ``end()``.
        case resolve
        /// As `resolve`, in the layer the wrapper was made in (``takeLayer()``).
        case resolveInLayer
        /// Read the replacing value, under `replacementLock`.
        case replaced
    }

    @inlinable
    final var isResolved: Bool {
        state.loadAcquiring() == Self.resolved
    }

    @inlinable @inline(__always)
    final func begin() -> FirstRead {
        let me = Self.resolvingWord
        if state.compareExchangeAcquiringOnFailureToo(expected: Self.unresolved, desired: me) {
            return held == nil ? .resolve : .resolveInLayer
        }
        return settle()
    }

    @usableFromInline
    final func settle() -> FirstRead {
        // Loaded again: at least as new as the failed swap's (nothing goes back to unresolved).
        settled ?? wait(on: ThreadState.current)
    }

    /// `nil` while unresolved or resolving.
    @usableFromInline
    final var settled: FirstRead? {
        switch state.loadAcquiring() {
        case Self.resolved: .resolved
        case Self.replaced: .replaced
        default: nil
        }
    }

    /// Returns what the wrapper let go of (a ticket, an earlier box), for the caller to release.
    @discardableResult
    final func replace(with box: LazyHeld) -> LazyHeld? {
        while true {
            let word = state.loadAcquiring()
            guard word == Self.unresolved || word == Self.resolved || word == Self.replaced else {
                _ = wait(on: ThreadState.current)
                continue
            }
            if word == Self.unresolved,
                !state.compareExchangeAcquiring(
                    expected: word, desired: ThreadState.currentAddress)
            {
                continue
            }
            let (old, previous) = Self.replacementLock.withLock {
                // Only its holders move resolved or replaced on (invariant 2).
                defer { held = box }
                return (held, state.exchangeAcquiringAndReleasing(Self.replaced))
            }
            if previous & Self.waitedFor != 0 { Self.wakeWaiters(of: previous) }
            return old
        }
    }

    /// Call once replaced.
    @usableFromInline
    final func replacement() -> LazyHeld {
        Self.replacementLock.withLock { held.unsafelyUnwrapped }
    }

    /// Call after `begin` said `resolveInLayer`.
    final func takeLayer() -> LayerTicket {
        defer { held = nil }
        return unsafeDowncast(held.unsafelyUnwrapped, to: LayerTicket.self)
    }

    @inlinable @inline(__always)
    final func end() {
        let previous = state.exchangeAcquiringAndReleasing(Self.resolved)
        assert(
            previous & ~Self.waitedFor == Self.resolvingWord,
            "only the resolving thread ends a first read, once")
        guard previous & Self.waitedFor != 0 else { return }
        Self.wakeWaiters(of: previous)
    }

    @usableFromInline
    static func wakeWaiters(of previous: UInt) {
        thread(of: previous).wakeWaiters()
    }

    private func wait(on thread: ThreadState) -> FirstRead {
        while true {
            let word = state.loadAcquiring()
            if word == Self.resolved || word == Self.replaced { break }
            assert(word != Self.unresolved, "a first read never goes back to unresolved")
            let resolver = Self.thread(of: word)
            if resolver === thread {
                Failure.reentrantLazyRead(of: key, by: type(of: self).wrapperName, on: thread)
            }
            // Marked first, so that the resolver wakes us (invariant 3); it may have ended.
            if word & Self.waitedFor != 0
                || state.compareExchangeAcquiringOnFailureToo(
                    expected: word, desired: word | Self.waitedFor)
            {
                thread.wait(for: .lazy(self), on: resolver)
            }
        }
        return state.loadAcquiring() == Self.replaced ? .replaced : .resolved
    }

    var resolver: ThreadState? {
        let word = state.loadAcquiring()
        guard word != Self.resolved, word != Self.replaced, word != Self.unresolved else {
            return nil
        }
        return Self.thread(of: word)
    }

    /// Perhaps a later thread's state by now, never freed memory ("Waiting and cycles", 5).
    private static func thread(of word: UInt) -> ThreadState {
        let address = UnsafeRawPointer(bitPattern: word & ~Self.waitedFor).unsafelyUnwrapped
        return Unmanaged<ThreadState>.fromOpaque(address).takeUnretainedValue()
    }
}

/// Not inlined: the detours word is hidden (`Internal/README.md`, "Layers captured by wrappers").
@usableFromInline
func capturedLayer() -> LazyHeld? {
    LayerTicket.current
}

/// `LazyOnce.held`: a class of the library's own, so that the field is released as a native one.
@usableFromInline
class LazyHeld {
    @usableFromInline
    init() {}
}
