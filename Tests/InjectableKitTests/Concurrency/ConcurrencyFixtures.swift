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
