import Observation

/// What ``InjectableObject/changes(of:)`` returns: the values read from an observable object,
/// now and after each change to what was read.
///
/// Each element is `read` applied to the object. Cancellation ends the sequence instead of
/// throwing, so `for await` needs no `try`.
///
/// It is its own iterator: ``makeAsyncIterator()`` starts a new one, which reads the object on
/// its first `next()`, and then on each change to what it read. It reads the object on the
/// actor of the code that iterates it, which it learns from `next(isolation:)`: `for await`
/// calls that from iOS 18 and macOS 15 on, so the sequence needs them.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
public struct ObservedChanges<Object: AnyObject & Observable, Value>: AsyncSequence,
    AsyncIteratorProtocol
{
    let object: Object
    let read: (Object) -> Value
    let signal = ChangeSignal()
    var started = false

    /// A new iteration of the same reads, which reads the object on its first `next()`.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Self {
        ObservedChanges(object: object, read: read)
    }

    /// The next value, read off any actor: what the standard library's own `next()` does
    /// for an iterator that implements only `next(isolation:)`, here so that no system
    /// needs that function (iOS 18.0 to 18.3 lack it). `for await` calls
    /// ``next(isolation:)`` instead, and so does a call `next()` in code: this one is
    /// disfavoured.
    ///
    /// - Returns: The value, or `nil` once the task is cancelled.
    @_disfavoredOverload
    public mutating func next() async -> Value? {
        await next(isolation: nil)
    }

    /// The next value: the first at once, each later one after a change.
    ///
    /// - Parameter actor: The caller's isolation, where `read` runs; leave the default.
    /// - Returns: The value, or `nil` once the task is cancelled.
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async
        -> Value?
    {
        if started {
            guard await signal.wait() else { return nil }
        } else {
            started = true
            if Task.isCancelled { return nil }
        }
        let signal = self.signal
        return withObservationTracking {
            read(object)
        } onChange: {
            signal.fire()
        }
    }
}

/// A change reported by `withObservationTracking` (which fires once per tracking), held until
/// the iterator waits for it.
final class ChangeSignal: @unchecked Sendable {
    // @unchecked: the mutable state is guarded by `lock`.
    private let lock = Lock(rank: .leaf)
    private var pending = false
    private var cancelled = false
    private var waiter: CheckedContinuation<Bool, Never>?

    /// Records a change, waking the waiter if there is one. Runs on the thread that changes
    /// the object, just before the change.
    func fire() {
        // A waiter waits only while no change is pending: a change wakes it, or is pending.
        resumeWaiter(returning: true) { pending = waiter == nil }
    }

    /// Makes `change` under the lock, then resumes the waiter, if there is one, with `value`.
    private func resumeWaiter(returning value: Bool, after change: () -> Void) {
        let waiter = lock.withLock {
            change()
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: value)
    }

    /// Waits for a change: `true` once there is one, `false` if the task is cancelled.
    func wait(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        await withTaskCancellationHandler {
            // A closure runs on its context's isolated parameter only if it captures it;
            // without this it would hop to the global executor, and the iterator would read the
            // object late, merging changes it should report one by one.
            _ = isolation
            return await withCheckedContinuation { continuation in
                let ready: Bool? = lock.withLock {
                    if cancelled { return false }
                    if pending {
                        pending = false
                        return true
                    }
                    waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            resumeWaiter(returning: false) { cancelled = true }
        }
    }
}
