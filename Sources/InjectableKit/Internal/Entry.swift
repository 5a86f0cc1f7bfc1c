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
    private var box: AnyObject?
    private weak var object: AnyObject?
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

    /// The instance held, if there is one and it has not expired.
    @inline(__always)
    func value<Value>(as _: Value.Type) -> Value? {
        lock.lock()
        if holdsWeakly {
            let instance = object
            lock.unlock()
            return instance.flatMap { $0 as? Value }
        }
        guard let box else {
            lock.unlock()
            return nil
        }
        if let expiry, ContinuousClock.now >= expiry {
            self.box = nil
            self.expiry = nil
            lock.unlock()
            withExtendedLifetime(box) {}  // the instance's deinit runs outside the lock
            return nil
        }
        lock.unlock()
        return unsafeDowncast(box, to: Box<Value>.self).value
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
        lock.withLock {
            guard !retired, epoch == startEpoch else { return }
            if holdsWeakly {
                object = instance
            } else {
                box = Box(value)
                expiry = timeToLive.map { ContinuousClock.now.advanced(by: $0) }
            }
        }
    }

    /// Drops the instance; a retired entry never holds one again.
    func clear(retire: Bool = false) {
        lock.lock()
        let old = box
        box = nil
        object = nil
        expiry = nil
        epoch &+= 1
        if retire { retired = true }
        lock.unlock()
        withExtendedLifetime(old) {}  // the instance's deinit runs outside the lock
    }
}
