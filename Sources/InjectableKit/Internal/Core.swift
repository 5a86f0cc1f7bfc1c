/// The container's state, in one object: what resolution remembers (the memo), the global
/// overrides, and which instances were built from what (the dependency index).
///
/// Resolution runs on ``shared``, the process's one core; its memo publishes to the words that
/// every call site's fast path reads at fixed addresses (``MemoWords/process``).
///
/// The parts' locks, and the order a thread takes them in, are in `Internal/README.md`.
final class Core: Sendable {
    /// The process's core, which every resolution uses.
    static let shared = Core()

    /// What resolution remembers about each key (see `MemoTable`).
    let memo = MemoTable(limit: 1 << 16, keyLimit: 256, words: .process)
    /// The global overrides; task-local layers are registries above it (see `OverrideRegistry`).
    let overrides = OverrideRegistry(beneath: nil)
    /// Which cached instances were built from which keys, types and entries.
    let dependencies = DependencyIndex()

    private init() {}
}
