import Foundation

/// Lets threads wait for an instance another thread is constructing, and finds the circles of
/// waiting threads that a dependency cycle built on several threads at once would make.
struct BuildCoordinator: ~Copyable, Sendable {
    /// Guards every entry's `construction` and every thread's `waitingFor`. It is held only to
    /// look at or change them, never while a factory runs or a thread waits: a thread waits on
    /// the entry's own condition (see `Construction`).
    let lock = Lock(rank: .buildCoordinator)

    /// The threads that would wait on each other, starting with `thread`, if it waited on
    /// `entry`; `nil` when waiting is safe. Call with `lock` locked.
    func waitingCircle(from thread: ThreadState, on entry: Entry) -> [ThreadState]? {
        var circle = [thread]
        var next = entry
        while let builder = next.builder {
            if builder === thread { return circle }
            guard circle.count < 10_000, let waited = builder.waitingFor else { return nil }
            circle.append(builder)
            next = waited
        }
        return nil
    }
}
