import Synchronization

/// Counts the changes that may drop cached instances: every change of the overrides, in any
/// registry, and every scope reset.
///
/// A getter can resolve a dependency before it calls its helper (`let api = resolve(\.api);
/// return cached(Service(api))`). That read happens before the helper's entry exists, so its
/// dependency edge is recorded only when the entry builds, after the read: a change between the
/// two would miss the edge. The build therefore keeps its instance only if no change began since
/// its frame did (see `Resolver.scoped`). A change advances the count before it looks for what
/// was built from what it changed; a build records its edges before it compares the count. So
/// either the build sees the count move, or the change finds the edges.
enum ChangeCount {
    private static let count = Atomic<UInt64>(0)

    static var current: UInt64 { count.load(ordering: .sequentiallyConsistent) }

    static func advance() {
        count.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }
}
