import Testing

@testable import InjectableKit

extension Injections {
    var lazyOnceProbe: Service { Service("probe") }
}

/// The once-state's transitions on one thread (`LazyOnce`); the races are in
/// `LazyFirstReadTests`. Nothing here resolves a key, so these run in parallel.
@Suite struct LazyOnceTests {
    @Test func theFirstReadMakesItsThreadTheResolverUntilItEnds() {
        let once = LazyOnce(\Injections.lazyOnceProbe)
        #expect(once.phase == .unresolved)
        #expect(!once.isResolved)
        // Made outside any layer: resolved where it is read.
        guard case .resolve = once.begin() else {
            Issue.record("the first read resolves, where it is read")
            return
        }
        #expect(once.phase == .resolving(onThisThread: true, waitedFor: false))
        once.end()
        #expect(once.phase == .resolved)
        #expect(once.isResolved)
    }

    @Test func aReadAfterTheFirstEndedReadsTheValue() {
        let once = LazyOnce(\Injections.lazyOnceProbe)
        _ = once.begin()
        once.end()
        guard case .resolved = once.begin() else {
            Issue.record("a later read resolves nothing")
            return
        }
        #expect(once.phase == .resolved)
    }

    @Test func aWrapperMadeInALayerHandsItsLayerToTheFirstRead() {
        let once = Injections.withOverrides { _ in
        } operation: {
            LazyOnce(\Injections.lazyOnceProbe)
        }
        guard case .resolveInLayer = once.begin() else {
            Issue.record("the first read resolves, in the layer")
            return
        }
        _ = once.takeLayer()
        once.end()
        #expect(once.phase == .resolved)
    }

    @Test func aReplacementBeforeTheFirstReadMeansTheReadResolvesNothing() {
        let once = LazyOnce(\Injections.lazyOnceProbe)
        let released = once.replace(with: LazyBox(Service("assigned")))
        #expect(released == nil)  // made outside any layer: no ticket to let go of
        #expect(once.phase == .replaced)
        #expect(!once.isResolved)  // the fast path's read is for the first value only
        guard case .replaced = once.begin() else {
            Issue.record("a read after a replacement reads the replacing value")
            return
        }
        #expect(once.phase == .replaced)
    }

    @Test func aReplacementAfterTheFirstReadMovesResolvedToReplaced() {
        let once = LazyOnce(\Injections.lazyOnceProbe)
        _ = once.begin()
        once.end()
        _ = once.replace(with: LazyBox(Service("assigned")))
        #expect(once.phase == .replaced)
        #expect(once.settled == .replaced)
    }

    @Test func aReplacementBeforeTheFirstReadLetsGoOfTheLayer() {
        let once = Injections.withOverrides { _ in
        } operation: {
            LazyOnce(\Injections.lazyOnceProbe)
        }
        let released = once.replace(with: LazyBox(Service("assigned")))
        #expect(released is LayerTicket)
        #expect((once.replacement() as? LazyBox<Service>)?.value.name == "assigned")
    }
}
