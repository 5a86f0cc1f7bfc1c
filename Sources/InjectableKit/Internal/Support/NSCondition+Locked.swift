import Foundation

extension NSCondition {
    /// Takes the lock as one of `rank` (checked in internal-checks builds). Foundation's
    /// `withLock(_:)` needs iOS 16 and macOS 13, above the package's floor.
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
