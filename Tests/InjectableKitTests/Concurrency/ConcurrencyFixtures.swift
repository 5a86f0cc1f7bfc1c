import Foundation
import InjectableKit

extension Injections {
    var slowCached: Service {
        cached(
            {
                Counters.slowBuilds.increment()
                Thread.sleep(forTimeInterval: 0.02)
                return Service("slow cached")
            }())
    }
    var slowApplication: Service {
        application(
            {
                Counters.applicationBuilds.increment()
                Thread.sleep(forTimeInterval: 0.02)
                return Service("slow application")
            }())
    }
    var chainTop: Node { cached(Node(id: 1, child: resolve(\.chainMiddle))) }
    var chainMiddle: Node { cached(Node(id: 2, child: resolve(\.chainBottom))) }
    var chainBottom: Node {
        cached(
            {
                Thread.sleep(forTimeInterval: 0.005)
                return Node(id: 3)
            }())
    }
}

/// Runs `body` on `count` threads that start together, and waits at most `timeout`.
///
/// - Returns: Whether every thread finished in time; `false` means a deadlock or a stall (the
///   stuck threads are left behind, so that the test fails instead of hanging).
func runOnThreads(
    _ count: Int, timeout: TimeInterval = 20, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            start.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    return finished.wait(timeout: .now() + timeout) == .success
}

/// A value guarded by an `NSLock`. (Not `Mutex`, which needs iOS 18 and macOS 15, above the
/// package's floor, and whose contended path on Linux is invisible to ThreadSanitizer, which
/// then reports false races.)
final class Guarded<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// An atomic value for the tests, with the part of `Atomic`'s interface they use. (Not
/// `Atomic`: Synchronization needs iOS 18 and macOS 15, and the tests build at the package's
/// floor; a lock gives every access the strongest ordering, so the orderings are only read.)
final class TestAtomic<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `guarded`'s lock.
    private let guarded: Guarded<Value>

    /// The orderings of `Atomic`'s interface.
    enum Ordering { case relaxed, acquiring, releasing, sequentiallyConsistent }

    init(_ value: Value) { guarded = Guarded(value) }

    func load(ordering: Ordering) -> Value { guarded.withLock { $0 } }

    func store(_ value: Value, ordering: Ordering) { guarded.withLock { $0 = value } }
}

extension TestAtomic where Value: FixedWidthInteger {
    @discardableResult
    func add(_ operand: Value, ordering: Ordering) -> (oldValue: Value, newValue: Value) {
        guarded.withLock { value in
            let old = value
            value &+= operand
            return (old, value)
        }
    }

    func wrappingAdd(_ operand: Value, ordering: Ordering) -> (oldValue: Value, newValue: Value) {
        add(operand, ordering: ordering)
    }
}
