import Foundation

/// One cached instance of one registration in one scope, and the state of its construction.
final class Entry: @unchecked Sendable {
    // @unchecked: the stored instance, its expiry and epoch are guarded by `lock`; `builder` is
    // guarded by `BuildCoordinator.condition`; the `let`s are immutable.
    let key: EntryKey
    /// The keypath being resolved when the entry was made, for override invalidation.
    let owner: AnyKeyPath?
    let holdsWeakly: Bool
    let timeToLive: Duration?

    private let lock = Lock()
    /// The instance, as the type the helper built it as: a `Box`, or for a weak entry an
    /// `UnownedBox` valid while `object` is alive.
    private var cell: AnyObject?
    private weak var object: AnyObject?
    /// The same instance as the type of the key that memoised this entry, when that differs
    /// (`var service: any Service { shared(LiveService()) }` builds a `LiveService`).
    private var view: AnyObject?
    private var viewType: ObjectIdentifier?
    private var makeView: ((Any, AnyObject?) -> AnyObject?)?
    private var expiry: ContinuousClock.Instant?
    private var epoch: UInt64 = 0
    private var retired = false

    /// The thread constructing the instance right now, if any.
    var builder: ThreadState?

    init(key: EntryKey, owner: AnyKeyPath?, holdsWeakly: Bool, timeToLive: Duration?) {
        self.key = key
        self.owner = owner
        self.holdsWeakly = holdsWeakly
        self.timeToLive = timeToLive
    }

    /// The instance held, if there is one and it has not expired, as the entry's own type or
    /// as the type of its view.
    @inline(__always)
    func value<Value>(as _: Value.Type) -> Value? {
        let wanted = ObjectIdentifier(Value.self)
        lock.lock()
        guard let stored = wanted == key.type ? cell : wanted == viewType ? view : nil else {
            lock.unlock()
            return nil
        }
        if holdsWeakly {
            guard let instance = object else {
                lock.unlock()
                return nil
            }
            lock.unlock()
            return withExtendedLifetime(instance) {
                unsafeDowncast(stored, to: UnownedBox<Value>.self).value
            }
        }
        if let expiry, ContinuousClock.now >= expiry {
            lock.unlock()
            clear()
            return nil
        }
        lock.unlock()
        return unsafeDowncast(stored, to: Box<Value>.self).value
    }

    /// Whether `value` is the instance the entry holds, when it is a class instance (a getter
    /// that returns something other than its helper's result is never memoised).
    func isHolding<Value>(_ value: Value) -> Bool {
        guard let instance = classInstance(value) else { return true }
        return lock.withLock {
            if holdsWeakly { return object === instance }
            return (cell as? any ValueCell).flatMap { classInstance($0.anyValue) } === instance
        }
    }

    /// Lets `value(as:)` read the instance as `View` without a cast, converting it once per
    /// construction instead. An entry keeps one such view.
    ///
    /// - Returns: Whether the instance can be read as `View`.
    func adoptView<View>(_: View.Type) -> Bool {
        let wanted = ObjectIdentifier(View.self)
        if wanted == key.type { return true }
        let makeView: (Any, AnyObject?) -> AnyObject? = { value, instance in
            guard let view = value as? View else { return nil }
            return instance.map { UnownedBox(view, object: $0) } ?? Box(view)
        }
        lock.lock()
        defer { lock.unlock() }
        if viewType == wanted { return true }
        guard viewType == nil else { return false }
        // Convert what the entry holds now, if anything (a weak one only while it is alive).
        var converted: AnyObject? = nil
        if let current = cell as? any ValueCell {
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
        if let value = value(as: Value.self) { return value }
        let condition = BuildCoordinator.condition
        condition.lock()
        while true {
            if let value = value(as: Value.self) {
                condition.unlock()
                return value
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
        store(value, ifEpoch: startEpoch)
        builder = nil
        condition.broadcast()
        condition.unlock()
        return value
    }

    private func store<Value>(_ value: Value, ifEpoch startEpoch: UInt64) {
        guard !isNil(value) else { return }  // nil is never cached
        let instance = holdsWeakly ? classInstance(value) : nil
        if holdsWeakly && instance == nil { return }  // a value cannot be held weakly
        let newCell: AnyObject = instance.map { UnownedBox(value, object: $0) } ?? Box(value)
        lock.lock()
        guard !retired, epoch == startEpoch else {
            lock.unlock()
            return
        }
        let old = (cell, view)
        cell = newCell
        object = instance
        view = makeView?(value, instance)
        expiry = holdsWeakly ? nil : timeToLive.map { ContinuousClock.now.advanced(by: $0) }
        lock.unlock()
        withExtendedLifetime(old) {}  // a previous instance's deinit runs outside the lock
    }

    /// Drops the instance; a retired entry never holds one again.
    func clear(retire: Bool = false) {
        lock.lock()
        let old = (cell, view)
        cell = nil
        view = nil
        object = nil
        expiry = nil
        epoch &+= 1
        if retire { retired = true }
        lock.unlock()
        withExtendedLifetime(old) {}  // the instance's deinit runs outside the lock
    }
}
