import Dispatch
import Foundation
import InjectableKit
import TestSupport
import Testing

/// Pauses the service's factory once, while another thread resets its dependency's scope.
private enum MidGate {
    static let armed = TestAtomic<Bool>(false)
    static let inBuild = DispatchSemaphore(value: 0)
    static let resetDone = DispatchSemaphore(value: 0)
    static let depBuilds = Counter()
    static let serviceBuilds = Counter()

    static func make(_ dep: LevelLeaf) -> LevelParent {
        serviceBuilds.increment()
        if armed.load(ordering: .relaxed) {
            armed.store(false, ordering: .relaxed)
            inBuild.signal()
            resetDone.wait()
        }
        return LevelParent(dep)
    }
}

extension Injections.Scope {
    fileprivate static let midDepScope = Injections.Scope.cached("midDepScope")
}

extension Injections {
    fileprivate var midApi: LevelLeaf { cached(LevelLeaf("api")) }
    fileprivate var midDep: LevelLeaf {
        scoped(.midDepScope, LevelLeaf("dep \(MidGate.depBuilds.increment())"))
    }
    /// Reads before its helper; its factory reads the dependency.
    fileprivate var midService: LevelParent {
        let api = resolve(\.midApi)
        _ = api
        return cached(MidGate.make(resolve(\.midDep)))
    }
    /// An enclosing frame outside its helper while the service resolves.
    fileprivate var midOuter: LevelGrand {
        let service = resolve(\.midService)
        return cached(LevelGrand(service))
    }
}

/// What a getter reads before its helper is its own, and its helper's entry and what that
/// helper's factory builds are not: under a getter that itself reads before its helper, a
/// build dropped while it runs is built again, and a helper nested in a factory is no
/// dependent of it. These reset and build the global caches of their own scopes, so they run
/// in the serialized `GlobalContainerTests`.
extension GlobalContainerTests {
    @Suite struct PendingReadsTests {
        @Test func aBuildDroppedWhileItRunsUnderAGetterThatReadsFirstIsBuiltAgain() {
            let container = Injections.container
            _ = container.resolve(\.midApi)
            MidGate.armed.store(true, ordering: .relaxed)
            let resetter = Background {
                MidGate.inBuild.wait()
                Injections.Scope.midDepScope.reset()
                MidGate.resetDone.signal()
                return 0
            }
            let before = MidGate.serviceBuilds.count
            let outer = container.resolve(\.midOuter)
            _ = resetter.result(within: 10)
            let builds = MidGate.serviceBuilds.count - before
            // The drop is seen as the build stores its instance: the factory runs again and
            // reads the new dependency, and that instance is kept.
            #expect(builds == 2, "service built \(builds) times")
            #expect(outer.parent.leaf.tag == "dep 2", "got \(outer.parent.leaf.tag)")
            let again = container.resolve(\.midService)
            #expect(again === outer.parent)
        }

        @Test func resettingAScopeKeepsTheInstanceOfAHelperNestedInItsFactory() {
            let container = Injections.container
            let first = container.resolve(\.nestOuter)
            #expect(container.resolve(\.nestService).parent === first)
            Injections.Scope.nestOuterScope.reset()
            let again = container.resolve(\.nestService).parent
            #expect(again === first, "\(first.leaf.tag) -> \(again.leaf.tag)")
        }
    }
}

private enum NestCounter { static let inner = Counter() }

extension Injections.Scope {
    fileprivate static let nestOuterScope = Injections.Scope.cached("nestOuterScope")
    fileprivate static let nestInnerScope = Injections.Scope.cached("nestInnerScope")
}

extension Injections {
    /// Reads before its helper; a helper nested in its helper's factory.
    fileprivate var nestService: LevelGrand {
        let api = resolve(\.midApi)
        _ = api
        return scoped(
            .nestOuterScope,
            LevelGrand(
                scoped(
                    .nestInnerScope,
                    LevelParent(LevelLeaf("inner \(NestCounter.inner.increment())")))))
    }
    fileprivate var nestOuter: LevelParent {
        let service = resolve(\.nestService)
        return cached(service.parent)
    }
}
