import InjectableKit
import Testing

extension Injections {
    var scopedOverrideCache: Service { cached(Service("live")) }
    subscript(scopedOverrideAccount id: Int) -> Account { cached(Account(id: id)) }
}

/// Overrides given a scope with `register(_:scope:factory:)`. Each test runs in its own layer
/// (`Injections.withOverrides`), whose caches are its own, so they run in parallel.
@Suite struct ScopedOverrideTests {
    @Test func overrideWithAScopeReturnsOneInstanceUntilTheScopeIsReset() {
        Injections.withOverrides {
            $0.register(\.scopedOverrideCache, scope: .cached) { Service("mock") }
        } operation: {
            let first = Injections.container.resolve(\.scopedOverrideCache)
            #expect(first.name == "mock")
            #expect(Injections.container.resolve(\.scopedOverrideCache) === first)
            Injections.Scope.cached.reset()
            let rebuilt = Injections.container.resolve(\.scopedOverrideCache)
            #expect(rebuilt.name == "mock")
            #expect(rebuilt !== first)
        }
    }

    @Test func overrideWithoutAScopeBuildsOnEveryResolutionEvenForACachedKey() {
        Injections.withOverrides {
            $0.register(\.scopedOverrideCache) { Service("mock") }
        } operation: {
            let first = Injections.container.resolve(\.scopedOverrideCache)
            #expect(Injections.container.resolve(\.scopedOverrideCache) !== first)
        }
    }

    @Test func containerFormInALayerKeepsTheScopeToo() {
        Injections.withOverrides { _ in
        } operation: {
            Injections.container.register(\.scopedOverrideCache, scope: .application) {
                Service("mock")
            }
            let first = Injections.container.resolve(\.scopedOverrideCache)
            #expect(first.name == "mock")
            #expect(Injections.container.resolve(\.scopedOverrideCache) === first)
        }
    }

    @Test func reRegisteringTheKeyDropsTheOverridesInstance() {
        Injections.withOverrides { _ in
        } operation: {
            Injections.container.register(\.scopedOverrideCache, scope: .cached) {
                Service("first")
            }
            let first = Injections.container.resolve(\.scopedOverrideCache)
            Injections.container.register(\.scopedOverrideCache, scope: .cached) {
                Service("second")
            }
            let second = Injections.container.resolve(\.scopedOverrideCache)
            #expect(second.name == "second")
            #expect(second !== first)
        }
    }

    @Test func eachArgumentValuesScopedOverrideHasItsOwnInstance() {
        Injections.withOverrides {
            $0.register(\.[scopedOverrideAccount: 1], scope: .cached) { Account(id: -1) }
            $0.register(\.[scopedOverrideAccount: 2], scope: .cached) { Account(id: -2) }
        } operation: {
            let one = Injections.container.resolve(\.[scopedOverrideAccount: 1])
            let two = Injections.container.resolve(\.[scopedOverrideAccount: 2])
            #expect(one.id == -1)
            #expect(two.id == -2)
            #expect(Injections.container.resolve(\.[scopedOverrideAccount: 1]) === one)
        }
    }

    @Test func overridesInstanceIsNotTheOneTheKeysRegistrationCached() {
        Injections.withOverrides { _ in
        } operation: {
            let live = Injections.container.resolve(\.scopedOverrideCache)
            Injections.container.register(\.scopedOverrideCache, scope: .cached) {
                Service("mock")
            }
            #expect(Injections.container.resolve(\.scopedOverrideCache) !== live)
            Injections.container.reset(\.scopedOverrideCache)
            let liveAgain = Injections.container.resolve(\.scopedOverrideCache)
            #expect(liveAgain.name == "live")
        }
    }
}
