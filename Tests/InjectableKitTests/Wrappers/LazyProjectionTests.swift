import Foundation
import InjectableKit
import TestSupport
import Testing

private let projectionBuilds = Counter()
private let untouchedBuilds = Counter()
private let weakBuilds = Counter()
private let heldParents = Guarded<[ProjectionParent]>([])

protocol ProjectionParentType: AnyObject, Sendable {}
final class ProjectionParent: ProjectionParentType {}

extension Injections {
    fileprivate var projectionUnique: Service {
        projectionBuilds.increment()
        return Service("unique")
    }
    fileprivate var untouchedUnique: Service {
        untouchedBuilds.increment()
        return Service("untouched")
    }
    fileprivate var projectionParent: any ProjectionParentType {
        weakBuilds.increment()
        let parent = ProjectionParent()
        heldParents.withLock { $0.append(parent) }  // held strongly, as a weak key's must be
        return parent
    }
}

/// The wrappers' projection (`$property.resolve()`, and the lazy ones' `valueIfResolved`) and
/// assignment. The keys are these tests' own and unique, each counting its builds: nothing
/// here touches a global override or a shared cache (an override is registered in a test's
/// own layer). Serialized, since the tests share the keys' build counts.
@Suite(.serialized) struct LazyProjectionTests {
    final class Owner: @unchecked Sendable {
        // @unchecked: the wrappers are safe from any thread; the test reads them on one.
        @LazyInjectable(\.projectionUnique) var service
        @LazyInjectable(\.untouchedUnique) var untouched
        @WeakLazyInjectable(\.projectionParent) var parent
    }

    final class EagerOwner {
        @Injectable(\.projectionUnique) var service
    }

    @Test func valueIfResolvedIsNilUntilTheFirstReadAndNeverResolves() {
        let owner = Owner()
        let before = projectionBuilds.count
        #expect(owner.$service.valueIfResolved == nil)
        #expect(projectionBuilds.count == before)
        let first = owner.service
        #expect(owner.$service.valueIfResolved === first)
        #expect(projectionBuilds.count == before + 1)
    }

    @Test func resolveBuildsAUniqueKeyAgainAndKeepsTheNewInstance() {
        let owner = Owner()
        let first = owner.service
        let second = owner.$service.resolve()
        #expect(second !== first)
        #expect(owner.service === second)
        #expect(owner.$service.valueIfResolved === second)
    }

    @Test func injectableResolveBuildsAUniqueKeyAgainAndKeepsTheNewInstance() {
        let owner = EagerOwner()
        let first = owner.service
        let second = owner.$service.resolve()
        #expect(second !== first)
        #expect(owner.service === second)
    }

    @Test func injectableResolveAppliesAnOverrideRegisteredSinceItsOwnerWasMade() {
        Injections.withOverrides { _ in
        } operation: {
            let owner = EagerOwner()
            #expect(owner.service.name == "unique")
            Injections.container.register(\.projectionUnique) { Service("override") }
            #expect(owner.service.name == "unique")
            owner.$service.resolve()
            #expect(owner.service.name == "override")
        }
    }

    @Test func anAssignmentBeforeTheFirstReadIsReadAndTheKeyNeverResolves() {
        let owner = Owner()
        let assigned = Service("assigned")
        let before = untouchedBuilds.count
        owner.untouched = assigned
        #expect(owner.untouched === assigned)
        #expect(owner.$untouched.valueIfResolved === assigned)
        #expect(untouchedBuilds.count == before)
    }

    @Test func anAssignmentAfterTheFirstReadReplacesTheValueForEveryRead() {
        let owner = Owner()
        _ = owner.service
        let assigned = Service("assigned")
        owner.service = assigned
        #expect(owner.service === assigned)
        let again = Service("again")
        owner.service = again
        #expect(owner.service === again)
    }

    @Test func weakLazyWrapperIsAssignedResolvedAgainAndReadWithoutResolving() {
        // Lets go of the parents the key built, so that their weak references' side tables go.
        defer { heldParents.withLock { $0.removeAll() } }
        let owner = Owner()
        let before = weakBuilds.count
        #expect(owner.$parent.valueIfResolved == nil)
        #expect(weakBuilds.count == before)
        let first = owner.parent
        #expect(first != nil)
        let second = owner.$parent.resolve()
        #expect(second !== first)
        #expect(owner.parent === second)
        let assigned = ProjectionParent()
        owner.parent = assigned
        #expect(owner.parent === assigned)
        #expect(owner.$parent.valueIfResolved === assigned)
        owner.parent = nil
        #expect(owner.parent == nil)
    }

    @Test func readsRacingAnAssignmentGetTheFirstOrTheAssignedValue() {
        let owner = Owner()
        let first = owner.service
        let assigned = Service("assigned")
        let threads = 4
        let reads = stressSize(quick: 2_000, full: 50_000)
        let unexpected = TestAtomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index == threads {
                owner.service = assigned
                return
            }
            for _ in 0..<reads {
                let read = owner.service
                if read !== first && read !== assigned {
                    unexpected.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(unexpected.load(ordering: .relaxed) == 0)
        #expect(owner.service === assigned)
    }
}
