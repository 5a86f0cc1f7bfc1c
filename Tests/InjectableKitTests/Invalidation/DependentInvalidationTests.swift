import Testing

@testable import InjectableKit

final class Leaf: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

final class Holder: Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

extension Injections.Scope {
    static let leafScope = Injections.Scope.cached("leafScope")
}

extension Injections {
    var uniqueLeaf: Leaf { Leaf("live unique") }
    var scopedLeaf: Leaf { scoped(.leafScope, Leaf("live scoped")) }
    var holderOfUniqueLeaf: Holder { cached(Holder(leaf: resolve(\.uniqueLeaf))) }
    var holderOfScopedLeaf: Holder { application(Holder(leaf: resolve(\.scopedLeaf))) }
    var middleHolder: Holder { Holder(leaf: resolve(\.scopedLeaf)) }
    var holderOfHolder: Holder { cached(Holder(leaf: resolve(\.middleHolder).leaf)) }
    var unrelatedHolder: Holder { cached(Holder(leaf: Leaf("unrelated"))) }
    var holderReadingItsLeafManyTimes: Holder {
        cached(Holder(leaf: (0..<10_000).map { _ in resolve(\.scopedLeaf) }.last!))
    }
}

/// Instances cached from a key are dropped with it: a cached parent never keeps a stale child.
extension GlobalContainerTests {
    @Suite struct DependentInvalidationTests {
        @Test func overridingALeafRebuildsTheCachedParentBuiltFromIt() {
            let live = Injections.container.resolve(\.holderOfUniqueLeaf)
            #expect(live.leaf.name == "live unique")
            Injections.container.register(\.uniqueLeaf) { Leaf("mock") }
            #expect(Injections.container.resolve(\.holderOfUniqueLeaf).leaf.name == "mock")
            Injections.container.reset(\.uniqueLeaf)
            #expect(Injections.container.resolve(\.holderOfUniqueLeaf).leaf.name == "live unique")
        }

        @Test func aTypeOverrideRebuildsWhatWasBuiltFromKeysOfThatType() {
            _ = Injections.container.resolve(\.holderOfUniqueLeaf)
            Injections.container.register { Leaf("by type") }
            #expect(Injections.container.resolve(\.holderOfUniqueLeaf).leaf.name == "by type")
            Injections.container.reset()
        }

        @Test func resettingTheLeafsScopeRebuildsTheParentInAnotherScope() {
            Injections.Scope.leafScope.reset()
            let first = Injections.container.resolve(\.holderOfScopedLeaf)
            #expect(Injections.container.resolve(\.holderOfScopedLeaf) === first)
            Injections.Scope.leafScope.reset()
            let second = Injections.container.resolve(\.holderOfScopedLeaf)
            #expect(second !== first)
            #expect(second.leaf !== first.leaf)
        }

        @Test func invalidationFollowsDependenciesThroughUniqueRegistrations() {
            let first = Injections.container.resolve(\.holderOfHolder)
            #expect(Injections.container.resolve(\.holderOfHolder) === first)
            Injections.Scope.leafScope.reset()
            #expect(Injections.container.resolve(\.holderOfHolder) !== first)
        }

        @Test func aBuildThatReadsADependencyThousandsOfTimesIsDroppedWithItInBoundedMemory() {
            let first = Injections.container.resolve(\.holderReadingItsLeafManyTimes)
            // Each read is an edge record; the index takes them in before they pile up.
            let logged = Core.shared.dependencies.lock.withLock {
                Core.shared.dependencies.log.elements.count
            }
            #expect(logged < 10_000)
            Injections.Scope.leafScope.reset()
            #expect(Injections.container.resolve(\.holderReadingItsLeafManyTimes) !== first)
        }

        @Test func instancesNotBuiltFromTheChangedKeyAreKept() {
            let unrelated = Injections.container.resolve(\.unrelatedHolder)
            Injections.container.register(\.uniqueLeaf) { Leaf("mock") }
            Injections.Scope.leafScope.reset()
            #expect(Injections.container.resolve(\.unrelatedHolder) === unrelated)
            Injections.container.reset()
        }
    }
}
