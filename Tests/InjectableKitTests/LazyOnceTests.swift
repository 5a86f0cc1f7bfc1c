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
        guard case .resolve(let layer) = once.begin() else {
            Issue.record("the first read resolves")
            return
        }
        #expect(layer == nil)  // made outside any layer
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
        guard case .resolve(let layer) = once.begin() else {
            Issue.record("the first read resolves")
            return
        }
        #expect(layer != nil)
        once.end()
    }
}
