import Foundation
import InjectableKit
import Testing

extension Injections {
    fileprivate var stateFirst: Service { cached(Service("first")) }
    fileprivate var stateSecond: Service { cached(Service("second")) }
    fileprivate var stateParent: Service { cached(Service(resolve(\.stateFirst).name + "+")) }
    fileprivate subscript(stateAccount id: Int) -> Service { cached(Service("account \(id)")) }
    fileprivate var stateApplication: Service { application(Service("app")) }
}

/// Resetting and asking about one key. Each test runs in its own layer (whose caches are its
/// own), over keys no other test uses.
@Suite struct KeyStateTests {
    @Test func resetCacheDropsOneKeysInstanceAndKeepsTheRestOfItsScope() {
        Injections.withOverrides { _ in
        } operation: {
            let first = Injections.container.resolve(\.stateFirst)
            let second = Injections.container.resolve(\.stateSecond)
            Injections.container.resetCache(\.stateFirst)
            #expect(Injections.container.resolve(\.stateFirst) !== first)
            #expect(Injections.container.resolve(\.stateSecond) === second)
        }
    }

    @Test func resetCacheOfAnArgumentDropsThatArgumentsInstanceOnly() {
        Injections.withOverrides { _ in
        } operation: {
            let one = Injections.container.resolve(\.[stateAccount: 1])
            let two = Injections.container.resolve(\.[stateAccount: 2])
            Injections.container.resetCache(\.[stateAccount: 1])
            #expect(Injections.container.resolve(\.[stateAccount: 1]) !== one)
            #expect(Injections.container.resolve(\.[stateAccount: 2]) === two)
        }
    }

    @Test func resetCacheDropsWhatWasCachedFromTheKey() {
        Injections.withOverrides { _ in
        } operation: {
            let parent = Injections.container.resolve(\.stateParent)
            Injections.container.resetCache(\.stateFirst)
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
            Injections.container.resetCache(\.stateSecond)
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

    /// In a child process (an exit test): it resets the global caches, which tests running in
    /// parallel use.
    @Test func resetAllDropsOverridesAndEveryCacheApplicationIncluded() async {
        await #expect(processExitsWith: .success) {
            let application = Injections.container.resolve(\.stateApplication)
            Injections.container.register(\.stateSecond) { Service("mock") }
            Injections.container.resetAll()
            let holds = [
                !Injections.container.isOverridden(\.stateSecond),
                Injections.container.resolve(\.stateSecond).name == "second",
                Injections.container.resolve(\.stateApplication) !== application,
            ]
            exit(holds.allSatisfy { $0 } ? 0 : 1)
        }
    }
}
