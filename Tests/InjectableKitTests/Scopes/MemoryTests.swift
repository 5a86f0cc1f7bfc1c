import Foundation
import TestSupport
import Testing

@testable import InjectableKit

extension Injections {
    var memoryCached: Service { cached(Service("memory cached")) }
    var memoryApplication: Service { application(Service("memory application")) }
    var memoryGraph: Service { graph(Service("memory graph")) }
    var memoryGraphPair: (Service, Service) { (resolve(\.memoryGraph), resolve(\.memoryGraph)) }
    var memorySession: Service { scoped(.testSession, Service("memory session")) }
}

/// Nothing the container holds keeps an instance alive past its scope: checked with weak
/// references after each way a scope lets go.
extension GlobalContainerTests {
    @Suite struct MemoryTests {
        @Test func registeringAnOverrideReleasesTheCachedLiveInstance() {
            weak var live: Service?
            live = Injections.container.resolve(\.memoryCached)
            #expect(live != nil)
            Injections.container.register(\.memoryCached) { Service("mock") }
            #expect(live == nil)
            Injections.container.reset()
        }

        @Test func resettingTheApplicationScopeReleasesItsInstances() {
            weak var instance: Service?
            instance = Injections.container.resolve(\.memoryApplication)
            Injections.Scope.resetAll()
            #expect(instance != nil)
            Injections.Scope.resetAll(includingApplication: true)
            #expect(instance == nil)
        }

        @Test func graphInstancesAreReleasedWhenTheirResolutionEnds() {
            weak var first: Service?
            do {
                let pair = Injections.container.resolve(\.memoryGraphPair)
                first = pair.0
                #expect(pair.0 === pair.1)
            }
            #expect(first == nil)
        }

        @Test func customScopeResetReleasesItsInstances() {
            weak var instance: Service?
            instance = Injections.container.resolve(\.memorySession)
            #expect(instance != nil)
            Injections.Scope.testSession.reset()
            #expect(instance == nil)
        }

        @Test func aScopedOverrideIsReleasedWhenItIsDropped() {
            weak var mock: Service?
            Injections.container.register(\.memoryCached, scope: .cached) { Service("mock") }
            mock = Injections.container.resolve(\.memoryCached)
            #expect(mock?.name == "mock")
            Injections.container.reset(\.memoryCached)
            #expect(mock == nil)
        }
    }
}

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
            let indexedBefore = Injections.Scope.boundScope.storage.ownerIndexCount
            let edgesBefore = Core.shared.dependencies.edgeCount
            var edgesAfterRound: [Int] = []
            let ids = stressSize(quick: 3_000, full: 20_000)
            for round in 1...3 {
                for id in 0..<ids {
                    _ = Injections.container.resolve(\.[boundCached: id])
                }
                Injections.Scope.boundScope.reset()
                #expect(
                    Injections.Scope.boundScope.storage.entryCount == entriesBefore,
                    "round \(round)")
                #expect(
                    Injections.Scope.boundScope.storage.ownerIndexCount == indexedBefore,
                    "round \(round)")
                edgesAfterRound.append(Core.shared.dependencies.edgeCount)
            }
            // Suites running in parallel record edges of their own: a margin for them, below the
            // `ids` (3,000 or more) a round would leave behind.
            #expect(edgesAfterRound[2] <= edgesAfterRound[0] + 2_000)
            for (round, edges) in zip(1..., edgesAfterRound) {
                #expect(edges <= edgesBefore + 2_000, "round \(round)")
            }
        }

        @Test func layersEndingWhileAnotherThreadDropsInstancesLeaveNoDependencyEdges() {
            // Its parent depends on the leaf scope's entry: each reset below asks the index.
            _ = Injections.container.resolve(\.holderOfScopedLeaf)
            let edgesBefore = Core.shared.dependencies.edgeCount
            let rounds = stressSize(quick: 2_000, full: 20_000)
            let stop = TestAtomic(false)
            let resetter = Thread {
                while !stop.load(ordering: .relaxed) {
                    _ = Injections.container.resolve(\.holderOfScopedLeaf)
                    Injections.Scope.leafScope.reset()
                }
            }
            resetter.start()
            for _ in 0..<rounds {
                // A layer's own entry, built from its override, freed with the layer while the
                // other thread's resets take in what the index has noted.
                Injections.withOverrides {
                    $0.register(\.uniqueLeaf) { Leaf("layer") }
                } operation: {
                    _ = Injections.container.resolve(\.holderOfUniqueLeaf)
                }
            }
            stop.store(true, ordering: .relaxed)
            while !resetter.isFinished { Thread.sleep(forTimeInterval: 0.001) }
            // Suites running in parallel record edges of their own: a margin for them, below
            // the `rounds` (2,000 or more) that layers' entries would leave behind.
            #expect(Core.shared.dependencies.edgeCount <= edgesBefore + 1_000)
        }

        @Test func resettingAFunctionKeysOverrideForgetsWhatItBuiltForEveryArgumentValue() {
            let storage = Injections.Scope.boundFunctionScope.storage
            let before = storage.entryCount
            Injections.container.register(\.boundMake) { id in BoundItem(id: -id) }
            let ids = stressSize(quick: 3_000, full: 20_000)
            for id in 0..<ids {
                #expect(Injections.container.resolve(\.[boundMade: id]).id == -id)
            }
            #expect(storage.entryCount == before + ids)
            Injections.container.reset(\.boundMake)
            #expect(storage.entryCount == before)
            #expect(Injections.container.resolve(\.[boundMade: 7]).id == 7)
            Injections.Scope.boundFunctionScope.reset()
        }

        @Test func resettingOneArgumentValueDropsThatValueOnly() {
            for id in 0..<100 { _ = Injections.container.resolve(\.[boundMade: id]) }
            let kept = Injections.container.resolve(\.[boundMade: 1])
            let dropped = Injections.container.resolve(\.[boundMade: 2])
            Injections.container.reset(\.[boundMade: 2])
            #expect(!Injections.container.hasCachedInstance(\.[boundMade: 2]))
            #expect(Injections.container.hasCachedInstance(\.[boundMade: 1]))
            #expect(Injections.container.resolve(\.[boundMade: 1]) === kept)
            #expect(Injections.container.resolve(\.[boundMade: 2]) !== dropped)
            Injections.Scope.boundFunctionScope.reset()
        }

        @Test func releasedSharedArgumentInstancesDoNotKeepTheirEntries() {
            let before = Injections.Scope.shared.storage.entryCount
            let ids = stressSize(quick: 5_000, full: 20_000)
            for id in 0..<ids {
                _ = Injections.container.resolve(\.[boundShared: id])
            }
            // A new argument value: a chance to prune what the released ones left.
            _ = Injections.container.resolve(\.[boundShared: ids])
            let after = Injections.Scope.shared.storage.entryCount
            #expect(after - before < 2_000)
            Injections.Scope.shared.reset()  // not to leave thousands of entries behind
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
    fileprivate static let boundFunctionScope = Injections.Scope.cached("boundFunctionScope")
}

extension Injections {
    fileprivate var boundDependency: BoundDependency { cached(BoundDependency()) }
    fileprivate subscript(boundCached id: Int) -> BoundItem {
        scoped(.boundScope, BoundItem(id: id, dependency: resolve(\.boundDependency)))
    }
    fileprivate subscript(boundShared id: Int) -> BoundItem { shared(BoundItem(id: id)) }
    fileprivate var boundMake: @Sendable (Int) -> BoundItem { { BoundItem(id: $0) } }
    fileprivate subscript(boundMade id: Int) -> BoundItem {
        scoped(.boundFunctionScope, resolve(\.boundMake)(id))
    }
}
