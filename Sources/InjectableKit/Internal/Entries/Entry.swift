import CInjectableAtomics
import Foundation

/// One cached instance of one registration in one scope, and the state of its construction.
///
/// Its states and the rules for moving between them are in `Internal/README.md`.
@usableFromInline
final class Entry: @unchecked Sendable {
    // @unchecked: the instance, its expiry, epoch and `construction` are guarded by `lock`; the
    // `let`s are immutable.
    // NB: the fields a resolution reads come first (a class's stored properties are laid out in
    // declaration order), so that they sit in one or two cache lines after the object's header:
    // with many registrations, each line a resolution touches is a likely miss.
    /// The lock's two words and `edgeFlags`' word, first among the stored properties so that
    /// their addresses are fixed offsets in the object (see `AtomicWord.init(inline:of:)`).
    @exclusivity(unchecked) private var inlineWords: (lock: UInt, sleepers: UInt, edgeFlags: UInt) =
        (0, 0, 0)
    /// Guards the instance, kept inline: the fast path takes it with no pointer to follow.
    @inlinable var lock: LockWord {
        @inline(__always) get { LockWord(AtomicWord(inline: 0, of: self).address, rank: .entry) }
    }
    @usableFromInline let holdsWeakly: Bool
    /// Whether the instance has a time to live; then `expiry` says when it ends.
    private var expires = false
    /// The cell's instance when the cell owns a class instance (a strong entry of a class type),
    /// here too so that reading it touches no other cache line.
    private var strongObject: AnyObject?
    /// The cells' storage, so that reading needs no reference to the cells (no retain).
    private var cellStorage: UnsafeMutableRawPointer?
    private weak var object: AnyObject?
    /// The type of the view, and its cell's storage.
    private var viewType: ObjectIdentifier?
    private var viewStorage: UnsafeMutableRawPointer?
    /// A weak entry's instance, kept alive by the read in progress (see `beginRead`).
    private var readHold: AnyObject?

    let key: EntryKey
    /// The entry's identity for dependency edges: unlike its address, never reused.
    let serial: UInt64
    /// Whether `DependencyIndex` may hold edges from this entry (`dependsOnSomething`) or to
    /// it (`isDependedOn`), so that dropping an entry without edges skips the index.
    var edgeFlags: AtomicWord { AtomicWord(inline: 2, of: self) }
    static let dependsOnSomething: UInt = 1
    static let isDependedOn: UInt = 2

    /// What the dependency index knows it was built from, while it knows something; guarded by
    /// the index's lock. Set and cleared with `dependsOnSomething`, the word `forget` reads
    /// without the lock.
    @exclusivity(unchecked) var edges: DependencyIndex.Sources?

    /// Whether `DependencyIndex` may hold edges from or to this entry.
    var mayHaveEdges: Bool { edgeFlags.loadAcquiring() != 0 }
    /// The keypath being resolved when the entry was made, for override invalidation.
    let owner: AnyKeyPath?
    let timeToLive: TimeToLive?

    /// The instance, as the type the helper built it as (see `makeCell`); for a weak entry a
    /// cell that does not own it, valid while `object` is alive.
    private(set) var cell: Cell? {
        didSet {
            cellStorage = cell?.storage
            // NB: no cast here, under the lock: `ObjectCell` is a final class, so comparing
            // metadata pointers tells it.
            strongObject =
                cell.flatMap { type(of: $0) == ObjectCell.self ? $0 : nil }.map {
                    unsafeDowncast($0, to: ObjectCell.self).ownedObject
                } ?? nil
        }
    }
    /// The same instance as the type of the key that memoised this entry, when that differs
    /// (`var service: any Service { shared(LiveService()) }` builds a `LiveService`).
    private var view: Cell? {
        didSet { viewStorage = view?.storage }
    }
    private var makeView: ((Any, AnyObject?) -> Cell?)?
    private(set) var epoch: UInt64 = 0
    #if INJECTABLEKIT_INTERNAL_CHECKS
        /// The epoch the held instance's build started in, for `checkInvariants`.
        var storedEpoch: UInt64?
    #endif
    /// How many builds have started: a change that meets the entry again while it walks what
    /// was built from what it dropped tells by this whether a build started since its first
    /// drop (see `DependencyIndex.invalidate`).
    private var buildStarts: UInt64 = 0

    /// Who builds the instance (see `Construction`).
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart.
    @exclusivity(unchecked) private(set) var construction = Construction()
    /// When the instance runs out its time to live, if `expires`, on `TimeToLive.now`'s clock.
    /// (Read only if `expires`, so that an entry without a time to live never reads the clock.)
    private var expiry: UInt64 = 0

    init(
        key: EntryKey, owner: AnyKeyPath?, holdsWeakly: Bool, timeToLive: TimeToLive?
    ) {
        self.key = key
        self.serial = nextSerial(IK_ENTRY_SERIALS)
        self.owner = owner
        self.holdsWeakly = holdsWeakly
        self.timeToLive = timeToLive
        AtomicWord.checkInlineWords(&inlineWords, of: self)
    }

    deinit {
        lock.releaseSleepers()
        // Its edges go with it. Safe: `DependencyIndex` never releases an entry's last
        // reference while it holds its lock (it hands loaded entries back to be released).
        Core.shared.dependencies.forget(self, asSource: true)
    }

    /// Starts reading the instance the entry holds, if there is one (alive, and not expired),
    /// as the entry's own type or, if `view`, as the type of its view.
    ///
    /// Returns the instance's storage with the entry locked and, for a weak entry, the instance
    /// kept alive: copy the value, then call ``endRead()``.
    ///
    /// The fast path's reads (this, `endRead`, `object(view:)`) are not generic and are called,
    /// not inlined: the code inlined into every call site is what every app module's optimiser
    /// works through, once per call site.
    @usableFromInline
    func beginRead(view: Bool) -> UnsafeMutableRawPointer? {
        lock.lock()
        if let storage = storage(view: view) {
            if holdsWeakly {
                readHold = object
                if readHold != nil { return storage }
            } else if !(expires && hasExpired()) {
                // An expired instance reads as absent; the rebuilt one replaces it (see `store`).
                return storage
            }
        }
        lock.unlock()
        return nil
    }

    /// Ends a read started by a successful ``beginRead(view:)``. A weak entry's instance is
    /// let go of once the lock is, since its last reference may be the read's.
    @usableFromInline
    func endRead() {
        let held = readHold
        readHold = nil
        lock.unlock()
        withExtendedLifetime(held) {}
    }

    /// The class instance the entry holds (as its type or, if `view`, its view's), if it is
    /// alive and not expired: the whole read for a key of a class type, one function for every
    /// such type instead of a generic copy per type, and for a weak entry no retain beyond the
    /// weak load's.
    @usableFromInline
    func object(view: Bool) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        // A view exists only while the instance converts to its type.
        guard let storage = storage(view: view) else { return nil }
        if holdsWeakly { return object }
        guard !(expires && hasExpired()) else { return nil }
        // The cell holds the instance as a class type: one object reference, the one in
        // `strongObject`.
        return strongObject ?? storage.assumingMemoryBound(to: AnyObject.self).pointee
    }

    /// The storage of the cell that holds the instance as the entry's type or, if `view`, as
    /// its view's type, if any. Call with `lock` locked.
    ///
    /// Readers say which one rather than pass a type: the memo knows it for each keypath (a
    /// view's type never changes once adopted), and a type would need the type's metadata,
    /// which at a call site merged with others is an indirect call (see `Resolver.resolve`).
    private func storage(view: Bool) -> UnsafeMutableRawPointer? {
        view ? viewStorage : cellStorage
    }

    @inline(never)
    private func hasExpired() -> Bool {
        TimeToLive.now >= expiry
    }

    /// Whether `value` is the class instance the entry holds: only then can the memo serve the
    /// entry's instance in place of the getter's result. (For a struct there is no telling
    /// whether the getter returned its helper's value or something built from it, such as
    /// `cached(5) + bonus`.)
    func isHolding<Value>(_ value: Value) -> Bool {
        guard let instance = classInstance(value) else { return false }
        // Read under the lock, cast outside it: no dynamic cast under the fast path's lock.
        let (held, alive) = lock.withLock { (cell, object) }
        if holdsWeakly { return alive === instance }
        return held?.heldObject === instance
    }

    /// Lets the fast path read the instance as `View` without a cast, converting it once per
    /// construction instead. An entry keeps one such view.
    ///
    /// - Returns: Whether the instance can be read as `View`.
    func adoptView<View>(_: View.Type) -> Bool {
        let wanted = ObjectIdentifier(View.self)
        if wanted == key.type { return true }
        let makeView: (Any, AnyObject?) -> Cell? = { value, instance in
            guard let view = value as? View else { return nil }
            return makeCell(view, unownedObject: instance)
        }
        while true {
            // Converted outside the lock (a cast), then adopted if the entry still holds what
            // was converted; otherwise converted again.
            let (chosen, held, alive) = lock.withLock { (viewType, cell, object) }
            if chosen == wanted { return true }
            guard chosen == nil else { return false }
            var converted: Cell? = nil
            if let current = held {
                // A weak entry's cell is valid only while its instance lives: `alive` keeps it.
                if !holdsWeakly || alive != nil {
                    converted = withExtendedLifetime(alive) { makeView(current.anyValue, alive) }
                    guard converted != nil else { return false }
                }
            }
            let adopted = lock.withLock {
                guard viewType == nil, cell === held, object === alive else { return false }
                viewType = wanted
                self.makeView = makeView
                view = converted
                return true
            }
            if adopted { return true }
        }
    }

    /// The instance, built by `make` if there is none; built once however many threads ask.
    ///
    /// A thread that finds another one building waits for it, unless waiting would close a
    /// circle of threads waiting on each other, which only a dependency cycle can make. A build
    /// that the entry is cleared during (an override or reset changed what it was built from)
    /// is built again by the same thread, and its waiters wait for that build.
    ///
    /// - Returns: Whether `slot` holds the instance: false if the entry was retired (its scope
    ///   reset) before this thread could build, and the caller should ask its scope for the
    ///   entry that replaced it.
    ///
    /// NB: no `Value?` in this unspecialised code: it would need `Optional<Value>`'s metadata,
    /// a run-time lookup on every call (and made at each type's first resolution).
    func obtain<Value>(
        _ make: () -> Value, keepIf isCurrent: () -> Bool = { true }, on thread: ThreadState,
        into slot: UnsafeMutablePointer<Value>
    ) -> Bool {
        claiming: while true {
            if read(into: slot) { return true }
            var loaded: AnyObject? = nil
            let claim: Construction.Claim? = lock.withLock {
                // Looked at again under the lock, which every store holds with its build's end:
                // an instance stored since the read is read, not built twice.
                let (held, object) = heldInstance()
                loaded = object
                return held ? nil : construction.claim(by: thread)
            }
            withExtendedLifetime(loaded) {}  // a weak load's instance released outside the lock
            switch claim {
            case nil: continue
            case .build: break claiming
            case .retired: return false
            case .reentrant: Failure.reentrantConstruction(of: self, on: thread)
            case .wait(let builder, let round):
                thread.wait(for: .entry(self, round: round), on: builder)
            }
        }
        checkInvariants()

        while true {
            // What an earlier build of this entry was built from is forgotten before this
            // build starts (not when the entry is cleared, which could forget what this build
            // records): the build records it anew (see `DependencyIndex`).
            Core.shared.dependencies.forget(self, asSource: false)
            let startEpoch = lock.withLock {
                buildStarts &+= 1
                return epoch
            }
            let changes = thread.changes
            let value = make()
            // Built from something the getter read before the build began, which may have
            // changed since: handed out, not kept, and not built again from the same reads.
            let current = isCurrent()
            var prepared = current ? prepare(value) : nil
            lock.lock()
            var (outcome, replaced) =
                current ? store(value, prepared, ifEpoch: startEpoch) : (.notKept, nil)
            while outcome == .viewAdopted {
                // A view was adopted since `prepare`: convert again, outside the lock.
                lock.unlock()
                prepared = prepare(value)
                lock.lock()
                (outcome, replaced) = store(value, prepared, ifEpoch: startEpoch)
            }
            if outcome == .cleared && thread.changes != changes {
                // The factory itself changed what the entry is built from (it registered an
                // override, or reset a scope): building again would change it again, for ever.
                // Its instance is handed out, not kept.
                outcome = .notKept
            }
            if outcome == .cleared {
                // Cleared while building: what it was built from changed. Build again,
                // still the builder, so that the waiters get the new build's instance.
                lock.unlock()
                withExtendedLifetime(value) {}
                continue
            }
            let waited = construction.finish(by: thread)
            lock.unlock()
            if waited { thread.wakeWaiters() }
            checkInvariants()
            withExtendedLifetime(replaced) {}  // an expired instance's deinit runs outside locks
            slot.initialize(to: value)
            return true
        }
    }

    /// The thread building the instance in `round`, if that build has not ended.
    func builder(inRound round: UInt64) -> ThreadState? {
        lock.withLock { construction.builder(inRound: round) }
    }

    /// Copies the instance held as the entry's own type into `slot`, if there is one (alive,
    /// and not expired).
    ///
    /// - Returns: Whether it did; if not, `slot` is left uninitialised.
    func read<Value>(into slot: UnsafeMutablePointer<Value>) -> Bool {
        guard let storage = beginRead(view: false) else { return false }
        slot.initialize(to: storage.assumingMemoryBound(to: Value.self).pointee)
        endRead()
        return true
    }

    /// What became of a newly built instance.
    enum StoreOutcome {
        case stored
        /// Not kept, by rule: `nil`, or a value in a weak entry.
        case notKept
        /// The entry was cleared since the build started: the instance may be stale.
        case cleared
        /// A view was adopted after the cells were made: make them again.
        case viewAdopted
    }

    /// A newly built instance, made ready to store: its cells, made outside every lock, since
    /// making them may cast.
    struct Prepared {
        let cell: Cell
        let object: AnyObject?
        let view: Cell?
        let hadViewMaker: Bool
    }

    /// Makes `value`'s cells, or `nil` if the entry does not keep it (`nil` is never cached, in
    /// any scope, and a value cannot be held weakly). Call with no lock held.
    private func prepare<Value>(_ value: Value) -> Prepared? {
        if isNil(value) { return nil }
        let instance = holdsWeakly ? classInstance(value) : nil
        if holdsWeakly && instance == nil { return nil }
        let maker = lock.withLock { makeView }
        return Prepared(
            cell: makeCell(value, unownedObject: instance), object: instance,
            view: maker?(value, instance), hadViewMaker: maker != nil)
    }

    /// Stores a newly built instance, unless the entry was cleared since the build started.
    /// Call with `lock` locked.
    ///
    /// - Returns: What became of it, and the cells it replaced, for the caller to release once
    ///   it holds no lock.
    private func store<Value>(_ value: Value, _ prepared: Prepared?, ifEpoch startEpoch: UInt64)
        -> (StoreOutcome, Detached)
    {
        // Whether the instance is current is asked first: a stale `nil` is built again too.
        guard epoch == startEpoch else { return (.cleared, nil) }
        guard let prepared else { return (.notKept, nil) }
        // A view adopted since `prepare` (once per entry, at a key's first resolution).
        guard prepared.hadViewMaker || makeView == nil else { return (.viewAdopted, nil) }
        let old = (cell, view)
        cell = prepared.cell
        #if INJECTABLEKIT_INTERNAL_CHECKS
            storedEpoch = startEpoch
        #endif
        object = prepared.object
        view = prepared.view
        if !holdsWeakly, let timeToLive {
            expires = true
            expiry = timeToLive.expiryFromNow
        }
        return (.stored, old)
    }

    /// Drops the instance.
    func clear() {
        let old = detachCountingBuilds()
        withExtendedLifetime(old) {}  // the instance's deinit runs outside the lock
    }

    /// Retires the entry unless a thread is building its instance: it never holds one again,
    /// and its scope forgets it.
    ///
    /// - Returns: Whether it retired the entry.
    func retireIfIdle() -> Bool {
        lock.withLock { construction.retireIfIdle() }
    }

    /// Whether the entry holds an instance now: alive, and not expired. Call with `lock`
    /// locked; release the instance it loaded (for a weak entry) once the lock is let go of.
    private func heldInstance() -> (Bool, loaded: AnyObject?) {
        guard cellStorage != nil else { return (false, nil) }
        if holdsWeakly {
            let alive = object
            return (alive != nil, alive)
        }
        return (!(expires && hasExpired()), nil)
    }

    /// Whether the entry holds an instance now: alive, and not expired.
    var holdsInstance: Bool {
        let (held, loaded) = lock.withLock { heldInstance() }
        return withExtendedLifetime(loaded) { held }
    }

    /// Whether the entry is idle and holds nothing alive: a weak entry whose instance is gone.
    ///
    /// - Parameter keep: Receives the instance if the check loaded one, for the caller to
    ///   release once it holds no lock: a weak load can leave the last reference here, and the
    ///   instance's deinit may use the container.
    /// - Returns: Whether no thread builds it and it holds no live instance.
    func isIdleAndEmpty(keeping keep: inout [AnyObject]) -> Bool {
        let (idle, held, alive) = lock.withLock { (construction.isIdle, cell, object) }
        if let alive { keep.append(alive) }
        return idle && (holdsWeakly ? alive == nil : held == nil)
    }

    /// The cells an entry held, handed back so that their instances are released where no
    /// lock is held (an instance's deinit may use the container).
    typealias Detached = (Cell?, Cell?)?

    /// Drops the instance like ``clear()``, but hands it back instead of releasing it, and tells
    /// how many builds had started by then. What the instance was built from is forgotten when
    /// the entry next builds.
    func detachCountingBuilds() -> (cells: Detached, buildStarts: UInt64) {
        lock.lock()
        let old = (cell, view)
        cell = nil
        view = nil
        object = nil
        expires = false
        epoch &+= 1
        let starts = buildStarts
        lock.unlock()
        return (old, starts)
    }

    /// The entry's epoch, which every drop of its instance moves on.
    var currentEpoch: UInt64 { lock.withLock { epoch } }

    /// How many builds have started (see `buildStarts`).
    var startedBuilds: UInt64 { lock.withLock { buildStarts } }
}
