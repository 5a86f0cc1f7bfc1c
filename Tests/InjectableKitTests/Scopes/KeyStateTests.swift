import Foundation
import InjectableKit
import Testing

extension Injections {
    fileprivate var stateFirst: Service { cached(Service("first")) }
    fileprivate var stateSecond: Service { cached(Service("second")) }
    fileprivate var stateParent: Service { cached(Service(resolve(\.stateFirst).name + "+")) }
    fileprivate subscript(stateAccount id: Int) -> Service { cached(Service("account \(id)")) }
}

/// Resetting and asking about one key. Each test runs in its own layer (whose caches are its
/// own), over keys no other test uses.
@Suite struct KeyStateTests {
    @Test func resettingAKeyDropsItsInstanceAndKeepsTheRestOfItsScope() {
        Injections.withOverrides { _ in
        } operation: {
            let first = Injections.container.resolve(\.stateFirst)
            let second = Injections.container.resolve(\.stateSecond)
            Injections.container.reset(\.stateFirst)
            #expect(Injections.container.resolve(\.stateFirst) !== first)
            #expect(Injections.container.resolve(\.stateSecond) === second)
        }
    }

    @Test func resettingAnArgumentKeyDropsThatArgumentsInstanceOnly() {
        Injections.withOverrides { _ in
        } operation: {
            let one = Injections.container.resolve(\.[stateAccount: 1])
            let two = Injections.container.resolve(\.[stateAccount: 2])
            Injections.container.reset(\.[stateAccount: 1])
            #expect(Injections.container.resolve(\.[stateAccount: 1]) !== one)
            #expect(Injections.container.resolve(\.[stateAccount: 2]) === two)
        }
    }

    @Test func resettingAKeyDropsWhatWasCachedFromIt() {
        Injections.withOverrides { _ in
        } operation: {
            let parent = Injections.container.resolve(\.stateParent)
            Injections.container.reset(\.stateFirst)
            #expect(Injections.container.resolve(\.stateParent) !== parent)
        }
    }

    @Test func hasCachedInstanceSaysWhetherResolvingWouldBuild() {
        Injections.withOverrides { _ in
        } operation: {
            #expect(!Injections.container.hasCachedInstance(\.stateSecond))
            _ = Injections.container.resolve(\.stateSecond)
            #expect(Injections.container.hasCachedInstance(\.stateSecond))
            #expect(!Injections.container.hasCachedInstance(\.[stateAccount: 3]))
            _ = Injections.container.resolve(\.[stateAccount: 3])
            #expect(Injections.container.hasCachedInstance(\.[stateAccount: 3]))
            Injections.container.reset(\.stateSecond)
            #expect(!Injections.container.hasCachedInstance(\.stateSecond))
        }
    }

    @Test func isOverriddenSeesKeyAndTypeOverridesOfEnclosingLayers() {
        Injections.withOverrides {
            $0.register(\.stateFirst) { Service("mock") }
        } operation: {
            #expect(Injections.container.isOverridden(\.stateFirst))
            #expect(!Injections.container.isOverridden(\.stateSecond))
            Injections.withOverrides { _ in
            } operation: {
                #expect(Injections.container.isOverridden(\.stateFirst))
            }
        }
        Injections.withOverrides {
            $0.register(as: Service.self) { Service("any") }
        } operation: {
            #expect(Injections.container.isOverridden(\.stateSecond))
        }
    }

    @Test func hasOverridesSaysWhetherTheLayerInEffectHoldsAny() {
        Injections.withOverrides { _ in
        } operation: {
            #expect(!Injections.container.hasOverrides)
            Injections.container.register(\.stateFirst) { Service("mock") }
            #expect(Injections.container.hasOverrides)
            // An enclosing layer's override applies here, but is not this layer's to reset.
            Injections.withOverrides { _ in
            } operation: {
                #expect(!Injections.container.hasOverrides)
                Injections.container.register(as: Service.self) { Service("any") }
                #expect(Injections.container.hasOverrides)
            }
            Injections.container.reset()
            #expect(!Injections.container.hasOverrides)
        }
    }

    @Test func resettingAKeyDropsItsOverrideAndItsCachedInstanceAsFactoryDoes() {
        Injections.withOverrides { _ in
        } operation: {
            let live = Injections.container.resolve(\.stateFirst)
            Injections.container.register(\.stateFirst) { Service("mock") }
            let mock = Injections.container.resolve(\.stateFirst)
            #expect(mock.name == "mock")
            Injections.container.reset(\.stateFirst)
            let rebuilt = Injections.container.resolve(\.stateFirst)
            #expect(rebuilt.name == "first")
            #expect(rebuilt !== live)
        }
    }

    @Test func resetDropsEveryOverrideAndKeepsWhatTheScopesBuiltLive() {
        Injections.withOverrides { _ in
        } operation: {
            let cached = Injections.container.resolve(\.stateFirst)
            Injections.container.register(\.stateSecond) { Service("mock") }
            Injections.container.reset()
            #expect(!Injections.container.isOverridden(\.stateSecond))
            #expect(Injections.container.resolve(\.stateSecond).name == "second")
            #expect(Injections.container.resolve(\.stateFirst) === cached)
        }
    }
}
