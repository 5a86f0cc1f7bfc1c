import Foundation

extension NSCondition {
    /// Runs `body` with the condition's lock held, taken as a lock of `rank` in the core's lock
    /// order (checked only in internal-checks builds). (Foundation's own `withLock(_:)` needs
    /// iOS 16 and macOS 13, above the package's floor.)
    func locked<Result>(rank: LockRank, _ body: () throws -> Result) rethrows -> Result {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            LockRank.willLock(rank)
            defer { LockRank.didUnlock(rank) }
        #endif
        lock()
        defer { unlock() }
        return try body()
    }
}
