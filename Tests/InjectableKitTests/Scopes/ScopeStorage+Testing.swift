@testable import InjectableKit

/// Test-only access to a scope's storage: what it keeps.
extension ScopeStorage {
    /// How many entries the scope keeps (for tests of its memory bound).
    var entryCount: Int { lock.withLock { entries.count } }

    /// How many entries its index by owner key holds, and holds to take in.
    var ownerIndexCount: Int {
        lock.withLock { byOwner.values.reduce(unindexed.elements.count) { $0 + $1.count } }
    }
}
