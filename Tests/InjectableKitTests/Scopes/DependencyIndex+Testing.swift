@testable import InjectableKit

/// Test-only access to the dependency index: what it holds.
extension DependencyIndex {
    /// How many edges the index keeps (for tests of its bound), logged ones included.
    var edgeCount: Int {
        locked {
            fold()
            return sources.values.reduce(0) { $0 + $1.sources.count + $1.entries.count }
        }
    }
}
