import CInjectableAtomics

/// The container's state, in one object: what resolution remembers (the memo), the global
/// overrides, which instances were built from what (the dependency index), and the
/// coordination of builds that several threads ask for at once.
///
/// Resolution runs on ``shared``, the process's core; its memo publishes to the words that
/// every call site's fast path reads at fixed addresses (``MemoWords/process``). A core made
/// with ``init(memoLimit:keysPerKey:)`` is a second one, for the memo's tests: its memo has
/// state and words of its own, which tests drive without touching the process's container.
/// Resolution never reaches its other parts, and a change of its override registry still
/// reaches the process's memo and dependency index, as a global change does.
///
/// The parts' locks, and the order a thread takes them in, are in `Internal/README.md`.
final class Core: Sendable {
    /// The process's core, which every resolution uses.
    static let shared = Core(
        memo: MemoTable(limit: 1 << 16, keyLimit: 256, words: .process),
        overrides: OverrideRegistry(parent: nil, isLayer: false))

    /// What resolution remembers about each key (see `MemoTable`).
    let memo: MemoTable
    /// The global overrides; task-local layers are registries above it (see `OverrideRegistry`).
    let overrides: OverrideRegistry
    /// Which cached instances were built from which keys, types and entries.
    let dependencies = DependencyIndex()
    /// The lock under which entries' builds start, end and are waited for.
    let builds = BuildCoordinator()

    private init(memo: MemoTable, overrides: OverrideRegistry) {
        self.memo = memo
        self.overrides = overrides
    }

    /// A core of its own, beside the process's: a memo with its own words, that gives at most
    /// `memoLimit` keypath objects slots, and at most `keysPerKey` for one key.
    convenience init(memoLimit: Int, keysPerKey: Int) {
        self.init(
            memo: MemoTable(limit: memoLimit, keyLimit: keysPerKey, words: .own),
            overrides: OverrideRegistry(parent: nil, isLayer: false))
    }
}
