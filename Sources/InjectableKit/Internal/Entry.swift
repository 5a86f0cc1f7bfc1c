import Foundation

/// One cached instance of one registration in one scope, and the state of its construction.
@usableFromInline
final class Entry: @unchecked Sendable {
    // @unchecked: the stored instance, its expiry and epoch are guarded by `lock`; `builder` is
    // guarded by `BuildCoordinator.condition`; the `let`s are immutable.
    // NB: the fields a resolution reads come first (a class's stored properties are laid out in
    // declaration order), so that they sit in one or two cache lines after the object's header:
    // with many registrations, each line a resolution touches is a likely miss.
    @usableFromInline let lock = Lock()
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

    let key: EntryKey
    /// The keypath being resolved when the entry was made, for override invalidation.
    let owner: AnyKeyPath?
    /// Whether the type is an `Optional`, whose `nil` is never stored.
    let holdsOptionals: Bool
    /// For an entry made by an override's factory, the type of the key the override served,
    /// so that changing a type override drops it.
    let overrideType: ObjectIdentifier?
    let timeToLive: Duration?

    /// The instance, as the type the helper built it as (see `makeCell`); for a weak entry a
    /// cell that does not own it, valid while `object` is alive.
    private var cell: Cell? {
        didSet {
            cellStorage = cell?.storage
            strongObject = (cell as? ObjectCell)?.ownedObject
        }
    }
    /// The same instance as the type of the key that memoised this entry, when that differs
    /// (`var service: any Service { shared(LiveService()) }` builds a `LiveService`).
    private var view: Cell? {
        didSet { viewStorage = view?.storage }
    }
    private var makeView: ((Any, AnyObject?) -> Cell?)?
    private var epoch: UInt64 = 0
    private var retired = false

    /// The thread constructing the instance right now, if any.
    var builder: ThreadState?
    /// When the instance expires, if `expires`. Declared last and read out of line: its type
    /// is resilient, so the fields after it and the code that touches it need run-time layout.
    private var expiry = ContinuousClock.Instant.now

    init(
        key: EntryKey, owner: AnyKeyPath?, overrideType: ObjectIdentifier?, holdsWeakly: Bool,
        holdsOptionals: Bool, timeToLive: Duration?
    ) {
        self.key = key
        self.owner = owner
        self.overrideType = overrideType
        self.holdsWeakly = holdsWeakly
        self.holdsOptionals = holdsOptionals
        self.timeToLive = timeToLive
    }

    /// Starts reading the instance a strong entry holds, if there is one and it has not
    /// expired, as the entry's own type or, if `view`, as the type of its view.
    ///
    /// Returns the instance's storage with the entry locked: copy the value, then call
    /// ``endRead()``. Not generic, so that the inlined fast path calls it without the cost of
    /// unspecialised generic code.
    @usableFromInline
    func beginRead(view: Bool) -> UnsafeMutableRawPointer? {
        lock.lock()
        let storage = storage(view: view)
        // An expired instance reads as absent; the rebuilt one replaces it (see `store`).
        if storage == nil || (expires && hasExpired()) {
            lock.unlock()
            return nil
        }
        return storage
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
        ContinuousClock.now >= expiry
    }

    /// Starts reading the instance a weak entry holds, if it is alive: like
    /// ``beginRead(view:)``, and also returns the instance, which the caller keeps until it has
    /// copied the value.
    @usableFromInline
    func beginWeakRead(view: Bool) -> (UnsafeMutableRawPointer, AnyObject)? {
        lock.lock()
        if let storage = storage(view: view), let instance = object {
            return (storage, instance)
        }
        lock.unlock()
        return nil
    }

    /// Ends a read started by a successful ``beginRead(view:)`` or ``beginWeakRead(view:)``.
    @inlinable
    func endRead() {
        lock.unlock()
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

    /// The instance held, if there is one (alive, and not expired), as the entry's type or, if
    /// `view`, as its view's type: `Value` must be that type.
    @inlinable
    func value<Value>(as _: Value.Type, view: Bool) -> Value? {
        // Decided when the function is specialised: one shared, non-generic read for every
        // class type, instead of a copy of the generic one per type.
        if isObjectReference(Value.self) {
            return object(view: view).map { unsafeBitCast($0, to: Value.self) }
        }
        return withStorage(view: view) { $0.assumingMemoryBound(to: Value.self).pointee }
    }

    /// Calls `body` with the storage of the instance held (as the entry's type or, if `view`,
    /// its view's type), with the entry locked and, for a weak entry, the instance kept alive;
    /// `nil` if there is no instance (alive, and not expired).
    @inlinable
    func withStorage<Result>(view: Bool, _ body: (UnsafeMutableRawPointer) -> Result) -> Result? {
        if holdsWeakly {
            guard let (storage, instance) = beginWeakRead(view: view) else { return nil }
            defer {
                endRead()
                withExtendedLifetime(instance) {}
            }
            return body(storage)
        }
        guard let storage = beginRead(view: view) else { return nil }
        defer { endRead() }
        return body(storage)
    }

    /// Whether `value` is the class instance the entry holds: only then can the memo serve the
    /// entry's instance in place of the getter's result. (For a struct there is no telling
    /// whether the getter returned its helper's value or something built from it, such as
    /// `cached(5) + bonus`.)
    func isHolding<Value>(_ value: Value) -> Bool {
        guard let instance = classInstance(value) else { return false }
        return lock.withLock {
            if holdsWeakly { return object === instance }
            return (cell as? any AnyValueCell).flatMap { classInstance($0.anyValue) } === instance
        }
    }

    /// Lets `value(as:view:)` read the instance as `View` without a cast, converting it once per
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
        lock.lock()
        defer { lock.unlock() }
        if viewType == wanted { return true }
        guard viewType == nil else { return false }
        // Convert what the entry holds now, if anything (a weak one only while it is alive).
        var converted: Cell? = nil
        if let current = cell as? any AnyValueCell {
            if !holdsWeakly {
                converted = makeView(current.anyValue, nil)
                guard converted != nil else { return false }
            } else if let instance = object {
                converted = withExtendedLifetime(instance) { makeView(current.anyValue, instance) }
                guard converted != nil else { return false }
            }
        }
        viewType = wanted
        self.makeView = makeView
        view = converted
        return true
    }

    /// The instance, built by `make` if there is none; built once however many threads ask.
    ///
    /// A thread that finds another one building waits for it, unless waiting would close a
    /// circle of threads waiting on each other, which only a dependency cycle can make.
    func obtain<Value>(_ make: () -> Value, on thread: ThreadState) -> Value {
        // NB: not `withUnsafeTemporaryAllocation`, which needs `Result<Value, Error>`'s metadata.
        let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        defer { slot.deallocate() }
        return obtain(make, on: thread, reading: slot)
    }

    /// ``obtain(_:on:)``, reading a held instance into `slot`.
    ///
    /// NB: no `Value?` (`value(as:view:)`) in this unspecialised code: it would need
    /// `Optional<Value>`'s metadata, made at each type's first resolution.
    private func obtain<Value>(
        _ make: () -> Value, on thread: ThreadState, reading slot: UnsafeMutablePointer<Value>
    ) -> Value {
        if read(into: slot) { return slot.move() }
        let condition = BuildCoordinator.condition
        condition.lock()
        while true {
            if read(into: slot) {
                condition.unlock()
                return slot.move()
            }
            if builder == nil { break }
            if builder === thread {
                condition.unlock()
                Failure.reentrantConstruction(of: self, on: thread)
            }
            if let circle = BuildCoordinator.waitingCircle(from: thread, on: self) {
                condition.unlock()
                Failure.crossThreadCycle(circle, closingAt: self)
            }
            thread.waitingFor = self
            condition.wait()
            thread.waitingFor = nil
        }
        builder = thread
        let startEpoch = lock.withLock { epoch }
        condition.unlock()

        let value = make()

        condition.lock()
        let replaced = store(value, ifEpoch: startEpoch)
        builder = nil
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(replaced) {}  // an expired instance's deinit runs outside the locks
        return value
    }

    /// Copies the instance held as the entry's own type into `slot`, if there is one (alive,
    /// and not expired).
    ///
    /// - Returns: Whether it did; if not, `slot` is left uninitialised.
    private func read<Value>(into slot: UnsafeMutablePointer<Value>) -> Bool {
        withStorage(view: false) {
            slot.initialize(to: $0.assumingMemoryBound(to: Value.self).pointee)
        } != nil
    }

    /// Stores a newly built instance, unless the entry was cleared or retired since the build
    /// started.
    ///
    /// - Returns: The cells it replaced, for the caller to release once it holds no lock.
    private func store<Value>(_ value: Value, ifEpoch startEpoch: UInt64) -> Detached {
        if holdsOptionals && isNil(value) { return nil }  // nil is never cached
        let instance = holdsWeakly ? classInstance(value) : nil
        if holdsWeakly && instance == nil { return nil }  // a value cannot be held weakly
        let newCell = makeCell(value, unownedObject: instance)
        lock.lock()
        guard !retired, epoch == startEpoch else {
            lock.unlock()
            return nil
        }
        let old = (cell, view)
        cell = newCell
        object = instance
        view = makeView?(value, instance)
        if !holdsWeakly, let timeToLive {
            expires = true
            expiry = ContinuousClock.now.advanced(by: timeToLive)
        }
        lock.unlock()
        return old
    }

    /// Drops the instance; a retired entry never holds one again.
    func clear(retire: Bool = false) {
        let old = detach(retire: retire)
        withExtendedLifetime(old) {}  // the instance's deinit runs outside the lock
    }

    /// The cells an entry held, handed back so that their instances are released where no
    /// lock is held (an instance's deinit may use the container).
    typealias Detached = (Cell?, Cell?)?

    /// Drops the instance like ``clear(retire:)``, but hands it back instead of releasing it.
    func detach(retire: Bool = false) -> Detached {
        lock.lock()
        let old = (cell, view)
        cell = nil
        view = nil
        object = nil
        expires = false
        epoch &+= 1
        if retire { retired = true }
        lock.unlock()
        return old
    }
}
