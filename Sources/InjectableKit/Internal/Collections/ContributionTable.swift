/// Every contribution made to a collection key, and whether each collection has been
/// resolved: the global state behind `Injections.contribute(_:to:)` and
/// `Injections.contributions(to:)`.
///
/// Contributions are made by the ``AutoRegistering`` hook only, so they are the same in every
/// process that links the app's modules (tests included). Each run of the hook (the first use
/// of the container, and the first after each global `reset()`) fills a new table, `staged`,
/// which the hook's own resolutions read; it replaces `live`, which every other thread reads,
/// when the run ends. So a thread resolving a collection while a `reset()` on another makes the
/// hook run again sees the last run's complete contributions, never a run's first few.
///
/// Its lock is taken alone: nothing else is locked while it is held, and no user code runs.
final class ContributionTable: @unchecked Sendable {
    // @unchecked: `live` and `staged` are guarded by `lock`.

    static let shared = ContributionTable()

    struct Record {
        var contributions: [Contribution] = []
        /// The collection's name, once the hook has resolved it: later contributions in the
        /// same run would be missed by that resolution.
        var resolvedBy: String?
    }

    private let lock = Lock()
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var live: [AnyKeyPath: Record] = [:]
    @exclusivity(unchecked) private var staged: [AnyKeyPath: Record]?

    /// A run of the hook starts: its contributions go to a new table.
    func beginRun() {
        lock.withLock { staged = [:] }
    }

    /// The run has ended: its contributions replace the last run's.
    func endRun() {
        let old: [AnyKeyPath: Record] = lock.withLock {
            let old = live
            live = staged ?? [:]
            staged = nil
            return old
        }
        _ = old  // released here, after the lock
    }

    /// Adds `contribution` to `collection` in the running hook's table, unless the hook has
    /// resolved the collection already.
    ///
    /// - Returns: `nil` once added; otherwise the collection's name.
    func add(_ contribution: Contribution, to collection: AnyKeyPath) -> String? {
        lock.withLock {
            if let resolvedBy = staged?[collection]?.resolvedBy { return resolvedBy }
            staged?[collection, default: Record()].contributions.append(contribution)
            return nil
        }
    }

    /// The contributions made to `collection`, in the order they were made: on the thread
    /// running the hook, those of the run so far, and no contribution is accepted after this.
    func resolve(_ collection: AnyKeyPath, name: String) -> [Contribution] {
        let inHook = AutoRegistration.isRunningHook
        return lock.withLock {
            guard inHook, staged != nil else { return live[collection]?.contributions ?? [] }
            if staged?[collection]?.resolvedBy == nil {
                staged?[collection, default: Record()].resolvedBy = name
            }
            return staged?[collection]?.contributions ?? []
        }
    }

    /// The contributions made to `collection`, as `resolve` finds them, without marking it.
    func contributions(to collection: AnyKeyPath) -> [Contribution] {
        let inHook = AutoRegistration.isRunningHook
        return lock.withLock {
            ((inHook ? staged : nil) ?? live)[collection]?.contributions ?? []
        }
    }
}
