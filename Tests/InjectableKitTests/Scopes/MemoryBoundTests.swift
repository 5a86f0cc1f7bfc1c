import Testing

@testable import InjectableKit

/// What a scope keeps for argument values, and the dependency edges their builds record, stay
/// bounded however many argument values a program resolves.
///
/// Here, not in a suite of its own, since it reads counts of global state: the scopes' storage
/// and the dependency index.
extension GlobalContainerTests {
    @Suite(aMinutePerTest) struct MemoryBoundTests {
        @Test func resettingAScopeForgetsItsArgumentEntriesAndTheirDependencyEdges() {
            _ = Injections.container.resolve(\.boundDependency)
            Injections.Scope.boundScope.reset()
            let entriesBefore = Injections.Scope.boundScope.storage.entryCount
            let edgesBefore = DependencyIndex.shared.edgeCount
            var edgesAfterRound: [Int] = []
            let ids = stressSize(quick: 5_000, full: 20_000)
            for round in 1...3 {
                for id in 0..<ids {
                    _ = Injections.container.resolve(\.[boundCached: id])
                }
                Injections.Scope.boundScope.reset()
                #expect(
                    Injections.Scope.boundScope.storage.entryCount == entriesBefore,
                    "round \(round)")
                edgesAfterRound.append(DependencyIndex.shared.edgeCount)
            }
            // Suites running in parallel record edges of their own: a margin for them, well
            // below the `ids` (5,000 or more) a round would leave behind.
            #expect(edgesAfterRound[2] <= edgesAfterRound[0] + 2_000)
            for (round, edges) in zip(1..., edgesAfterRound) {
                #expect(edges <= edgesBefore + 2_000, "round \(round)")
            }
        }

        @Test func releasedSharedArgumentInstancesDoNotKeepTheirEntries() {
            let before = Injections.Scope.shared.storage.entryCount
            for id in 0..<20_000 {
                _ = Injections.container.resolve(\.[boundShared: id])
            }
            // A new argument value: a chance to prune what the released ones left.
            _ = Injections.container.resolve(\.[boundShared: 20_000])
            let after = Injections.Scope.shared.storage.entryCount
            #expect(after - before < 2_000)
            Injections.Scope.shared.reset()  // not to leave 20,000 entries behind
        }
    }
}

private final class BoundDependency: Sendable {}

private final class BoundItem: Sendable {
    let id: Int
    let dependency: BoundDependency?
    init(id: Int, dependency: BoundDependency? = nil) {
        self.id = id
        self.dependency = dependency
    }
}

extension Injections.Scope {
    fileprivate static let boundScope = Injections.Scope.cached("boundScope")
}

extension Injections {
    fileprivate var boundDependency: BoundDependency { cached(BoundDependency()) }
    fileprivate subscript(boundCached id: Int) -> BoundItem {
        scoped(.boundScope, BoundItem(id: id, dependency: resolve(\.boundDependency)))
    }
    fileprivate subscript(boundShared id: Int) -> BoundItem { shared(BoundItem(id: id)) }
}
