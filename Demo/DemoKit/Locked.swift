import Foundation

/// A value behind a lock, for state that any thread reads and writes. (An `NSLock` rather than
/// Synchronization's `Mutex`, which needs iOS 18 and macOS 15: the demo builds at the
/// package's floor, iOS 13 and macOS 10.15.)
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
