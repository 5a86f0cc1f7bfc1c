import Foundation

/// A value guarded by an `NSLock`, which ThreadSanitizer sees (it cannot see `Mutex`'s
/// hand-over on Linux). Foundation's own `NSLock.withLock(_:)` needs iOS 16 and macOS 13, above
/// the package's floor.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
