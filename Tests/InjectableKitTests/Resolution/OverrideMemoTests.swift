import CallSiteFixtures
import InjectableKit
import TestSupport
import Testing

/// A global override, once it has served a key, is found through the memo: these pin that the
/// memo never serves an override a change has replaced or removed, and never keeps one alive.
extension GlobalContainerTests {
    @Suite struct OverrideMemoTests {
        init() { Injections.container.reset() }

        /// This file's call site of `\.callSiteOverridden`.
        private func resolveHere() -> CallSiteService {
            Injections.container.resolve(\.callSiteOverridden)
        }

        @Test func everyCallSiteServesTheGlobalOverrideInEffect() {
            let first = CallSiteService()
            Injections.container.register(\.callSiteOverridden) { first }
            defer { Injections.container.reset() }
            // Several times at each site: from its second resolution a site reads the memo.
            for _ in 0..<3 {
                #expect(resolveHere() === first)
                #expect(resolveCallSiteOverriddenElsewhere() === first)
            }
            let second = CallSiteService()
            Injections.container.register(\.callSiteOverridden) { second }
            for _ in 0..<3 {
                #expect(resolveHere() === second)
                #expect(resolveCallSiteOverriddenElsewhere() === second)
            }
            Injections.container.reset(\.callSiteOverridden)
            for _ in 0..<3 {
                #expect(resolveHere() !== second)
                #expect(resolveCallSiteOverriddenElsewhere() !== second)
            }
        }

        @Test func aGlobalOverrideKeptInItsKeysScopeIsRebuiltByTheOverrideAfterAReset() {
            let built = Counter()
            Injections.container.register(\.callSiteService) {
                built.increment()
                return CallSiteService()
            }
            defer { Injections.container.reset(\.callSiteService) }
            // From its second resolution the call site reads the override's entry.
            let first = Injections.container.resolve(\.callSiteService)
            for _ in 0..<3 { #expect(Injections.container.resolve(\.callSiteService) === first) }
            #expect(built.count == 1)
            Injections.Scope.cached.reset()
            let rebuilt = Injections.container.resolve(\.callSiteService)
            #expect(rebuilt !== first)
            #expect(built.count == 2)  // the override's factory again, not the live getter
            for _ in 0..<3 { #expect(Injections.container.resolve(\.callSiteService) === rebuilt) }
        }

        @Test func aTypeOverrideServedFromTheMemoGivesWayToAKeyOverride() {
            let byType = CallSiteService()
            let byKey = CallSiteService()
            Injections.container.register { byType }
            defer { Injections.container.reset() }
            for _ in 0..<3 { #expect(resolveHere() === byType) }
            Injections.container.register(\.callSiteOverridden) { byKey }
            for _ in 0..<3 { #expect(resolveHere() === byKey) }
        }

        @Test func aRemovedOverrideIsReleasedAfterServingFromTheMemo() {
            final class Capture: Sendable {}
            weak var weakCapture: Capture?
            do {
                let capture = Capture()
                weakCapture = capture
                Injections.container.register(\.callSiteOverridden) {
                    withExtendedLifetime(capture) { CallSiteService() }
                }
                for _ in 0..<3 {
                    _ = resolveHere()
                    _ = resolveCallSiteOverriddenElsewhere()
                }
            }
            #expect(weakCapture != nil, "the registry holds the override")
            Injections.container.reset(\.callSiteOverridden)
            #expect(weakCapture == nil, "nothing holds a removed override")
        }

        @Test func noResolutionAfterAChangeServesTheOverrideItReplaced() async {
            // Instances are told apart by the round that registered their override.
            let rounds = Guarded<[ObjectIdentifier: Int]>([:])
            func register(_ round: Int) {
                let service = CallSiteService()
                rounds.withLock { $0[ObjectIdentifier(service)] = round }
                Injections.container.register(\.callSiteOverridden) { service }
            }
            register(0)
            defer { Injections.container.reset() }
            let stop = Counter()  // counts to 1 when the registering loop is done
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        while stop.count == 0 {
                            _ = resolveCallSiteOverriddenElsewhere()
                        }
                    }
                }
                for round in 1...300 {
                    register(round)
                    let resolved = ObjectIdentifier(resolveHere())
                    #expect(rounds.withLock { $0[resolved] } == round)
                }
                stop.increment()
            }
        }
    }
}
