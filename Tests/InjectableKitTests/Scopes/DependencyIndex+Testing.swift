@testable import InjectableKit

/// Test-only access to the dependency index: what it holds.
extension DependencyIndex {
    /// How many edges the index keeps (for tests of its bound), those logged before the call
    /// included.
    var edgeCount: Int {
        let folded = lock.withLock { fold() }
        return withExtendedLifetime(folded) {
            lock.withLock {
                sources.values.reduce(0) { $0 + $1.sources.count + $1.entries.count }
            }
        }
    }
}
