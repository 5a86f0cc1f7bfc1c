import CInjectableAtomics
import Foundation

/// One cached instance of one registration in one scope, and its construction
/// (`Internal/README.md`, "Entry").
@usableFromInline
final class Entry: @unchecked Sendable {
    // @unchecked: the `var`s are guarded by `lock` (`edges` by the index's lock), `let`s immutable.
    // NB: the fields a resolution reads come first (stored properties are laid out in declaration
    // order), in one or two cache lines: with many registrations, each line is a likely miss.
    /// `lock`'s two words and `edgeFlags`, first: see `AtomicWord.init(inline:of:)`.
    @exclusivity(unchecked) private var inlineWords: (lock: UInt, sleepers: UInt, edgeFlags: UInt) =
        (0, 0, 0)
    @inlinable var lock: LockWord {
        @inline(__always) get { LockWord(AtomicWord(inline: 0, of: self).address, rank: .entry) }
    }
    @usableFromInline let holdsWeakly: Bool
    /// The class instance an `ObjectCell` owns, here so that reading it touches no other line.
    private var strongObject: AnyObject?
    /// The cells' storage, so that reading takes no reference to the cells (no retain).
    private var cellStorage: UnsafeMutableRawPointer?
    private weak var object: AnyObject?
    /// Whether `expiry` applies to a strong entry: one without never reads the clock.
    let timeToLive: TimeToLive?
    private var viewStorage: UnsafeMutableRawPointer?
    /// A weak entry's instance, kept alive from `beginRead` to `endRead`.
    private var readHold: AnyObject?
    private var viewType: ObjectIdentifier?

    let key: EntryKey
    /// The entry's name in dependency edges: unlike its address, never reused.
    let serial: UInt64
    /// Whether the index may hold edges from it (`dependsOnSomething`) or to it (`isDependedOn`):
    /// dropping an entry without edges skips the index.
    var edgeFlags: AtomicWord { AtomicWord(inline: 2, of: self) }
    static let dependsOnSomething: UInt = 1
    static let isDependedOn: UInt = 2

    /// What the index knows it was built from; guarded by the index's lock, set and cleared with
    /// `dependsOnSomething` (which `forget` reads without the lock).
    @exclusivity(unchecked) var edges: DependencyIndex.Sources?

    /// The keypath being resolved when the entry was made, for override invalidation.
    let owner: AnyKeyPath?

    /// The instance as the helper's type; for a weak entry, unowned: valid while `object` lives.
    private(set) var cell: Cell? {
        didSet {
            cellStorage = cell?.storage
            // NB: no cast under the lock: `ObjectCell` is final, so comparing metadata tells it.
            strongObject =
                cell.flatMap { type(of: $0) == ObjectCell.self ? $0 : nil }.map {
                    unsafeDowncast($0, to: ObjectCell.self).ownedObject
                } ?? nil
        }
    }
    /// The instance as the memoising key's type, where it differs (`any Service`, built a
    /// `LiveService`).
    private var view: Cell? {
        didSet { viewStorage = view?.storage }
    }
    private var makeView: ((Any, AnyObject?) -> Cell?)?
    private(set) var epoch: UInt64 = 0
    #if INJECTABLEKIT_INTERNAL_CHECKS
        /// The epoch the held instance's build started in, for `checkInvariants`.
        var storedEpoch: UInt64?
    #endif
    /// How many builds have started (`Internal/README.md`, edge rule 5).
    private var buildStarts: UInt64 = 0

    // NB: @exclusivity(unchecked): `lock` keeps accesses apart.
    @exclusivity(unchecked) private(set) var construction = Construction()
    /// On `TimeToLive.now`'s clock.
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
        // Safe: the index never releases an entry's last reference under its lock.
        Core.shared.dependencies.forget(self, asSource: true)
    }

    /// The held instance's storage (its view's, if `view`), if any, returned with `lock` held and
    /// a weak instance kept alive: copy the value, then call ``endRead()``.
    // NB: not generic, not inlined (nor `endRead`, `object(view:)`): inlined code is what every
    // app module's optimiser works through, once per call site.
    @usableFromInline
    func beginRead(view: Bool) -> UnsafeMutableRawPointer? {
        lock.lock()
        if let storage = readable(view: view) { return storage }
        lock.unlock()
        return nil
    }

    /// The storage if the entry holds an instance, alive (kept in `readHold`) and not expired.
    /// Call with `lock` locked; ``endRead()`` ends a read it allowed.
    private func readable(view: Bool) -> UnsafeMutableRawPointer? {
        guard let storage = storage(view: view) else { return nil }
        if holdsWeakly {
            readHold = object
            return readHold != nil ? storage : nil
        }
        return timeToLive != nil && hasExpired() ? nil : storage
    }

    /// Ends a successful ``beginRead(view:)``; a weak instance's last reference may be the read's.
    @usableFromInline
    func endRead() {
        let held = readHold
        readHold = nil
        lock.unlock()
        withExtendedLifetime(held) {}
    }

    /// The whole read for a key of a class type: one function for every such type, not a generic
    /// copy per type, and for a weak entry no retain beyond the weak load's.
    @usableFromInline
    func object(view: Bool) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        guard let storage = storage(view: view) else { return nil }
        if holdsWeakly { return object }
        guard !(timeToLive != nil && hasExpired()) else { return nil }
        // Otherwise the storage holds the instance as one object reference.
        return strongObject ?? storage.assumingMemoryBound(to: AnyObject.self).pointee
    }

    /// Call with `lock` locked.
    // A flag, not a type: a type's metadata at a merged call site is an indirect call.
    private func storage(view: Bool) -> UnsafeMutableRawPointer? {
        view ? viewStorage : cellStorage
    }

    @inline(never)
    private func hasExpired() -> Bool {
        TimeToLive.now >= expiry
    }

    /// Whether `value` is the class instance held: only then may the memo serve the entry for the
    /// getter (a struct may be built from the helper's value: `cached(5) + bonus`).
    func isHolding<Value>(_ value: Value) -> Bool {
        guard let instance = classInstance(value) else { return false }
        // Read under the lock, cast outside it: no dynamic cast under the fast path's lock.
        let (held, alive) = lock.withLock { (cell, object) }
        if holdsWeakly { return alive === instance }
        return held?.heldObject === instance
    }

    /// Lets the fast path read the instance as `View` with no cast, converted once per build (one
    /// view per entry). Returns whether it can.
    func adoptView<View>(_: View.Type) -> Bool {
        let wanted = ObjectIdentifier(View.self)
        if wanted == key.type { return true }
        let makeView: (Any, AnyObject?) -> Cell? = { value, instance in
            guard let view = value as? View else { return nil }
            return makeCell(view, unownedObject: instance)
        }
        while true {
            // Cast outside the lock, adopted only if the entry still holds what was cast.
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

    /// The instance, built by `make` once however many threads ask (`Internal/README.md`,
    /// "Entry"). False if the entry was retired first: ask the scope again.
    // NB: no `Value?` here: unspecialised, it would look up `Optional<Value>`'s metadata per call.
    func obtain<Value>(
        _ make: () -> Value, keepIf isCurrent: () -> Bool = { true }, on thread: ThreadState,
        into slot: UnsafeMutablePointer<Value>
    ) -> Bool {
        claiming: while true {
            // Read and claimed under one hold, so that no instance is built twice.
            lock.lock()
            if let storage = readable(view: false) {
                slot.initialize(to: storage.assumingMemoryBound(to: Value.self).pointee)
                endRead()
                return true
            }
            let claim = construction.claim(by: thread)
            lock.unlock()
            switch claim {
            case .build: break claiming
            case .retired: return false
            case .reentrant: Failure.reentrantConstruction(of: self, on: thread)
            case .wait(let builder, let round):
                thread.wait(for: .entry(self, round: round), on: builder)
            }
        }
        checkInvariants()

        while true {
            // As the build starts, not at the clear: edge rule 2.
            Core.shared.dependencies.forget(self, asSource: false)
            let startEpoch = lock.withLock {
                buildStarts &+= 1
                return epoch
            }
            let changes = thread.changes
            let value = make()
            // Edge rule 4: a stale earlier read is handed out, not kept, not built again.
            let current = isCurrent()
            var prepared = current ? prepare(value) : nil
            lock.lock()
            var (outcome, replaced) =
                current ? store(value, prepared, ifEpoch: startEpoch) : (.notKept, nil)
            while outcome == .viewAdopted {
                // A view was adopted since `prepare`: cast again, outside the lock.
                lock.unlock()
                prepared = prepare(value)
                lock.lock()
                (outcome, replaced) = store(value, prepared, ifEpoch: startEpoch)
            }
            if outcome == .cleared && thread.changes != changes {
                // Its own factory made the change: building again would make it again, for ever.
                outcome = .notKept
            }
            if outcome == .cleared {
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

    func builder(inRound round: UInt64) -> ThreadState? {
        lock.withLock { construction.builder(inRound: round) }
    }

    /// Copies the held instance into `slot`, if any; if not, `slot` is left uninitialised.
    func read<Value>(into slot: UnsafeMutablePointer<Value>) -> Bool {
        guard let storage = beginRead(view: false) else { return false }
        slot.initialize(to: storage.assumingMemoryBound(to: Value.self).pointee)
        endRead()
        return true
    }

    enum StoreOutcome {
        case stored
        /// `nil`, or a value in a weak entry.
        case notKept
        /// Since the build started: the instance may be stale.
        case cleared
        /// After the cells were made: make them again.
        case viewAdopted
    }

    /// A built instance's cells, made outside every lock, since making them may cast.
    struct Prepared {
        let cell: Cell
        let object: AnyObject?
        let view: Cell?
        let hadViewMaker: Bool
    }

    /// `nil` if the entry does not keep `value` (`nil`; a value in a weak entry). Call with no
    /// lock held.
    private func prepare<Value>(_ value: Value) -> Prepared? {
        if isNil(value) { return nil }
        let instance = holdsWeakly ? classInstance(value) : nil
        if holdsWeakly && instance == nil { return nil }
        let maker = lock.withLock { makeView }
        return Prepared(
            cell: makeCell(value, unownedObject: instance), object: instance,
            view: maker?(value, instance), hadViewMaker: maker != nil)
    }

    /// Call with `lock` locked; release the replaced cells it returns once no lock is held.
    private func store<Value>(_ value: Value, _ prepared: Prepared?, ifEpoch startEpoch: UInt64)
        -> (StoreOutcome, Detached)
    {
        // Asked first: a stale `nil` is built again too.
        guard epoch == startEpoch else { return (.cleared, nil) }
        guard let prepared else { return (.notKept, nil) }
        guard prepared.hadViewMaker || makeView == nil else { return (.viewAdopted, nil) }
        let old = (cell, view)
        cell = prepared.cell
        #if INJECTABLEKIT_INTERNAL_CHECKS
            storedEpoch = startEpoch
        #endif
        object = prepared.object
        view = prepared.view
        if !holdsWeakly, let timeToLive {
            expiry = timeToLive.expiryFromNow
        }
        return (.stored, old)
    }

    func retireIfIdle() -> Bool {
        lock.withLock { construction.retireIfIdle() }
    }

    var holdsInstance: Bool {
        guard beginRead(view: false) != nil else { return false }
        endRead()
        return true
    }

    /// `keep` receives a loaded instance, to release once no lock is held: a weak load may hold
    /// the last reference, and the deinit may use the container.
    func isIdleAndEmpty(keeping keep: inout [AnyObject]) -> Bool {
        let (idle, held, alive) = lock.withLock { (construction.isIdle, cell, object) }
        if let alive { keep.append(alive) }
        return idle && (holdsWeakly ? alive == nil : held == nil)
    }

    /// Cells handed back, to release where no lock is held (a deinit may use the container).
    typealias Detached = (Cell?, Cell?)?

    /// Empties the entry (epoch + 1), handing the cells back, with how many builds had started
    /// (edge rule 5).
    func detach() -> (cells: Detached, buildStarts: UInt64) {
        lock.lock()
        let old = (cell, view)
        cell = nil
        view = nil
        object = nil
        epoch &+= 1
        let starts = buildStarts
        lock.unlock()
        return (old, starts)
    }

    var currentEpoch: UInt64 { lock.withLock { epoch } }

    var startedBuilds: UInt64 { lock.withLock { buildStarts } }
}
