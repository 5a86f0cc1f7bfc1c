/// The hook's contributions (README, "Collection contributions"). Its lock is taken alone, and
/// no user code runs under it.
final class ContributionTable: @unchecked Sendable {
    // @unchecked: `live` and `staged` are guarded by `lock`.

    static let shared = ContributionTable()

    typealias MainActorContributor = @MainActor @Sendable (Injections) -> Void

    struct Record {
        var contributions: [Contribution] = []
        /// Set once resolved: a later contribution would be missed by that resolution.
        var resolvedBy: String?
    }

    struct Table {
        var records: [AnyKeyPath: Record] = [:]
        var pendingOnMainActor: [MainActorContributor] = []
    }

    /// Whether this task runs main-actor contributors, whose contributions go to `live`.
    @TaskLocal static var isContributingOnMainActor = false

    private let lock = Lock(rank: .leaf)
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var live = Table()
    @exclusivity(unchecked) private var staged: Table?

    func beginRun() {
        lock.withLock { staged = Table() }
    }

    func endRun() {
        let old: Table = lock.withLock {
            let old = live
            live = staged ?? Table()
            staged = nil
            return old
        }
        _ = old  // released here, after the lock
    }

    enum Refusal: Equatable {
        /// Resolved already, by this name: that resolution missed the edit.
        case resolved(String)
        case notContributed
    }

    /// Edits the running hook's table (`inHook`) or, from a main-actor contributor, the live
    /// one; returns why not if refused.
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

    /// In the order made; on the hook's thread, the run's so far. With `name`, marks the
    /// collection resolved by that name, unless it is already.
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

    /// Call on the main actor only.
    private func runMainActorContributors() {
        let pending: [MainActorContributor] = lock.withLock {
            defer { live.pendingOnMainActor = [] }
            return live.pendingOnMainActor
        }
        guard !pending.isEmpty else { return }
        // Called as nonisolated functions, as `GlobalActorFactory.bridge` does. NB: not
        // `MainActor.assumeIsolated`, which on Linux traps inside libdispatch.
        Self.$isContributingOnMainActor.withValue(true) {
            for contributor in pending {
                unsafeBitCast(contributor, to: (@Sendable (Injections) -> Void).self)(
                    Injections.container)
            }
        }
    }
}
