/// The container's state in one object (`Internal/README.md`, "Objects", Core).
final class Core: Sendable {
    static let shared = Core()

    let memo = MemoTable(limit: 1 << 16, keyLimit: 256, words: .process)
    /// The global overrides; task-local layers are registries above it.
    let overrides = OverrideRegistry(beneath: nil)
    let dependencies = DependencyIndex()

    private init() {}
}
