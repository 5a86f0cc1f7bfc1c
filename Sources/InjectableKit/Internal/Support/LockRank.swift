import CInjectableAtomics

/// `Internal/README.md`, "Locks and their order", as numbers, checked in internal-checks builds.
@usableFromInline
struct LockRank: Comparable, Sendable {
    let value: Int
    /// Whether a thread may hold two of this rank (an enclosing layer's before an inner one's).
    let nests: Bool

    @usableFromInline
    static func < (lhs: LockRank, rhs: LockRank) -> Bool { lhs.value < rhs.value }

    static let overrideRegistry = LockRank(value: 10, nests: true)
    static let layerTicket = LockRank(value: 15, nests: false)
    static let scopeStorage = LockRank(value: 20, nests: false)
    /// A builder's `ThreadState.parking`, its waiters' condition: a waiter holding it looks at
    /// the entry it waits for.
    static let parking = LockRank(value: 30, nests: false)
    @usableFromInline static let entry = LockRank(value: 40, nests: false)
    static let dependencyIndex = LockRank(value: 50, nests: false)
    static let memoTable = LockRank(value: 60, nests: false)
    static let overrideBox = LockRank(value: 70, nests: false)
    static let diagnostics = LockRank(value: 80, nests: false)
    /// A graph recording's or a verification's.
    static let recording = LockRank(value: 85, nests: false)
    static let keyNames = LockRank(value: 90, nests: false)
    /// A lock under which its holder takes no other lock.
    static let leaf = LockRank(value: 100, nests: false)
    /// `SpareThreadStates`', taken alone, while a thread's state is made or let go of.
    static let spareStates = LockRank(value: 110, nests: false)
}

#if INJECTABLEKIT_INTERNAL_CHECKS
    extension LockRank {
        static func willLock(_ rank: LockRank) {
            guard isChecked(rank) else { return }
            let thread = ThreadState.current
            if let highest = thread.heldLockRanks.last {
                precondition(
                    highest < rank || (highest == rank && rank.nests),
                    "InjectableKit: lock of rank \(rank.value) taken while holding rank "
                        + "\(highest.value): against the order in Internal/README.md")
            }
            thread.heldLockRanks.append(rank)
        }

        /// Whether taking a lock of `rank` is checked: not the spare states' while this thread
        /// has no state (it is being made, from them, or let go of), when it holds no other.
        private static func isChecked(_ rank: LockRank) -> Bool {
            rank != .spareStates || ik_thread_state_get() != nil
        }

        @usableFromInline
        static func didUnlock(_ rank: LockRank) {
            guard isChecked(rank) else { return }
            let thread = ThreadState.current
            if let index = thread.heldLockRanks.lastIndex(of: rank) {
                thread.heldLockRanks.remove(at: index)
            }
        }
    }
#endif
