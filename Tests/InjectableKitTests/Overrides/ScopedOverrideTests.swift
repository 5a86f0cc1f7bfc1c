import InjectableKit
import Testing

protocol LifetimeProbed: AnyObject, Sendable {
    var name: String { get }
}

/// A live service that counts its instances: an override that keeps its key's lifetime must
/// never build one.
final class LiveProbed: LifetimeProbed {
    static let built = Counter()
    let name = "live"
    init() { Self.built.increment() }
}

final class MockProbed: LifetimeProbed {
    let name = "mock"
}

/// A unique key's getter runs to its end when probed: it builds this one, not a `LiveProbed`.
final class UniqueProbed: LifetimeProbed {
    let name = "unique"
}

extension Injections {
    var scopedOverrideCache: Service { cached(Service("live")) }
    subscript(scopedOverrideAccount id: Int) -> Account { cached(Account(id: id)) }
    // The helper builds `LiveProbed`, not the key's `any LifetimeProbed`: the usual shape.
    var probedCached: any LifetimeProbed { cached(LiveProbed()) }
    var probedShared: any LifetimeProbed { shared(LiveProbed()) }
    var probedApplication: any LifetimeProbed { application(LiveProbed()) }
    var probedUnique: any LifetimeProbed { UniqueProbed() }
    var probedLiveOnly: any LifetimeProbed { cached(liveOnly(LiveProbed())) }
}

/// An override keeps its key's lifetime, unless `register(_:scope:factory:)` gives it another.
/// Each test runs in its own layer (`Injections.withOverrides`), whose caches are its own, so
/// they run in parallel; none of them builds a `LiveProbed`.
@Suite struct ScopedOverrideTests {
    @Test func anOverrideOfACachedKeyIsOneInstanceUntilTheScopeIsReset() {
        Injections.withOverrides {
            $0.register(\.probedCached) { MockProbed() }
        } operation: {
            let first = Injections.container.resolve(\.probedCached)
            #expect(first.name == "mock")
            #expect(Injections.container.resolve(\.probedCached) === first)
            Injections.Scope.cached.reset()
            let rebuilt = Injections.container.resolve(\.probedCached)
            #expect(rebuilt.name == "mock")
            #expect(rebuilt !== first)
        }
    }

    @Test func aTypeOverrideKeepsTheLifetimeOfEachKeyItServes() {
        Injections.withOverrides {
            $0.register { MockProbed() as any LifetimeProbed }
        } operation: {
            let cached = Injections.container.resolve(\.probedCached)
            #expect(Injections.container.resolve(\.probedCached) === cached)
            let application = Injections.container.resolve(\.probedApplication)
            #expect(application !== cached)
            #expect(Injections.container.resolve(\.probedApplication) === application)
            #expect(
                Injections.container.resolve(\.probedUnique)
                    !== Injections.container.resolve(\.probedUnique))
        }
    }

    @Test func anOverrideOfASharedKeyIsHeldWeaklyAsTheKeysInstanceIs() {
        Injections.withOverrides {
            $0.register(\.probedShared) { MockProbed() }
        } operation: {
            weak var released: (any LifetimeProbed)?
            do {
                let first = Injections.container.resolve(\.probedShared)
                #expect(Injections.container.resolve(\.probedShared) === first)
                released = first
            }
            #expect(released == nil)
        }
    }

    @Test func learningAKeysLifetimeNeverBuildsItsLiveValue() {
        let before = LiveProbed.built.count
        Injections.withOverrides {
            $0.register(\.probedCached) { MockProbed() }
            $0.register(\.probedShared) { MockProbed() }
            $0.register(\.probedApplication) { MockProbed() }
            $0.register(\.probedLiveOnly) { MockProbed() }
        } operation: {
            for _ in 0..<2 {
                _ = Injections.container.resolve(\.probedCached)
                _ = Injections.container.resolve(\.probedShared)
                _ = Injections.container.resolve(\.probedApplication)
                #expect(Injections.container.resolve(\.probedLiveOnly).name == "mock")
            }
        }
        // Other tests may build live ones meanwhile, but never through these overrides: the
        // live keys are not resolved anywhere else.
        #expect(LiveProbed.built.count == before)
    }

    @Test func theUniqueScopeBuildsTheOverrideAnewOnEveryResolution() {
        Injections.withOverrides {
            $0.register(\.probedCached, scope: .unique) { MockProbed() }
        } operation: {
            let first = Injections.container.resolve(\.probedCached)
            #expect(Injections.container.resolve(\.probedCached) !== first)
        }
    }

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
