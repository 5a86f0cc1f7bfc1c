import Foundation

extension NSCondition {
    /// Foundation's `withLock(_:)` needs iOS 16 and macOS 13, above the package's floor.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
