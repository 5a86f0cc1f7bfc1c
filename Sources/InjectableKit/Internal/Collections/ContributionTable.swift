/// Every contribution made to a collection key, and whether each collection has been
/// resolved: the global state behind `Injections.contribute(_:to:)`, `removeContribution` and
/// `Injections.contributions(to:)`.
///
/// Contributions are made by the ``AutoRegistering`` hook only, so they are the same in every
/// process that links the app's modules (tests included). Each run of the hook (the first use
/// of the container, and the first after each global `reset()`) fills a new table, `staged`,
/// which the hook's own resolutions read; it replaces `live`, which every other thread reads,
/// when the run ends. So a thread resolving a collection while a `reset()` on another makes the
/// hook run again sees the last run's complete contributions, never a run's first few.
///
/// The hook cannot name `@MainActor` keys (it is not isolated to the main actor), so it hands
/// over closures that do (`contributeOnMainActor`): they run on the main actor, once per run
/// of the hook, before the first collection assembled there, and add to `live`.
///
/// Its lock is taken alone: nothing else is locked while it is held, and no user code runs.
final class ContributionTable: @unchecked Sendable {
    // @unchecked: `live` and `staged` are guarded by `lock`.

    static let shared = ContributionTable()

    /// A closure the hook handed over, to make contributions on the main actor.
    typealias MainActorContributor = @MainActor @Sendable (Injections) -> Void

    struct Record {
        var contributions: [Contribution] = []
        /// The collection's name, once it has been resolved: a later contribution would be
        /// missed by that resolution.
        var resolvedBy: String?
    }

    struct Table {
        var records: [AnyKeyPath: Record] = [:]
        /// The main-actor contributors not yet run.
        var pendingOnMainActor: [MainActorContributor] = []
    }

    /// Whether this task runs main-actor contributors: its contributions go to `live`.
    @TaskLocal static var isContributingOnMainActor = false

    private let lock = Lock(rank: .leaf)
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var live = Table()
    @exclusivity(unchecked) private var staged: Table?

    /// A run of the hook starts: its contributions go to a new table.
    func beginRun() {
        lock.withLock { staged = Table() }
    }

    /// The run has ended: its contributions replace the last run's.
    func endRun() {
        let old: Table = lock.withLock {
            let old = live
            live = staged ?? Table()
            staged = nil
            return old
        }
        _ = old  // released here, after the lock
    }

    /// Why `apply(_:to:inHook:)` refused an edit.
    enum Refusal: Equatable {
        /// The collection was resolved already, by this name: that resolution missed the edit.
        case resolved(String)
        /// A removal named no contribution of the collection.
        case notContributed
    }

    /// Makes `edit` to `collection`'s contributions, in the running hook's table (`inHook`) or,
    /// from a main-actor contributor, in the live one, unless the collection was resolved
    /// already.
    ///
    /// - Returns: `nil` once made; otherwise why not.
    func apply(_ edit: CollectionEdit, to collection: AnyKeyPath, inHook: Bool) -> Refusal? {
        lock.withLock {
            if inHook {
                guard staged != nil else { return nil }
                return Self.apply(edit, to: &staged!.records[collection, default: Record()])
            }
            return Self.apply(edit, to: &live.records[collection, default: Record()])
        }
    }

    private static func apply(_ edit: CollectionEdit, to record: inout Record) -> Refusal? {
        if let resolvedBy = record.resolvedBy { return .resolved(resolvedBy) }
        guard case .add(let contribution) = edit else {
            let count = record.contributions.count
            record.contributions.removeAll(where: edit.removes)
            return record.contributions.count < count ? nil : .notContributed
        }
        record.contributions.append(contribution)
        return nil
    }

    /// Keeps `contributor` to run on the main thread once the hook's run has ended.
    func addMainActorContributor(_ contributor: @escaping MainActorContributor) {
        lock.withLock { staged?.pendingOnMainActor.append(contributor) }
    }

    /// The contributions made to `collection`, in the order they were made: on the thread
    /// running the hook, those of the run so far. With `name`, marks the collection resolved by
    /// that name, unless it is already.
    func contributions(to collection: AnyKeyPath, resolvedBy name: String? = nil) -> [Contribution]
    {
        let inHook = AutoRegistration.isRunningHook
        if !inHook && GlobalActorFactory.isOnMainActor { runMainActorContributors() }
        return lock.withLock {
            func read(_ table: inout Table) -> [Contribution] {
                if let name, table.records[collection]?.resolvedBy == nil {
                    table.records[collection, default: Record()].resolvedBy = name
                }
                return table.records[collection]?.contributions ?? []
            }
            return inHook && staged != nil ? read(&staged!) : read(&live)
        }
    }

    /// Runs the main-actor contributors not yet run. Call on the main actor only.
    private func runMainActorContributors() {
        let pending: [MainActorContributor] = lock.withLock {
            defer { live.pendingOnMainActor = [] }
            return live.pendingOnMainActor
        }
        guard !pending.isEmpty else { return }
        // The caller checked that it runs on the main actor (`GlobalActorFactory.isOnMainActor`):
        // call the contributors as nonisolated functions, as `GlobalActorFactory.bridge` does.
        // NB: not `MainActor.assumeIsolated`, which on Linux traps inside libdispatch.
        Self.$isContributingOnMainActor.withValue(true) {
            for contributor in pending {
                unsafeBitCast(contributor, to: (@Sendable (Injections) -> Void).self)(
                    Injections.container)
            }
        }
    }
}
