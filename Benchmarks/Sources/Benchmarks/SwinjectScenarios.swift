import Swinject

extension ObjectScope {
    /// InjectableKit's `cached` scope in Swinject: a custom scope with permanent storage, which
    /// `Container.resetObjectScope(_:)` empties.
    static let benchCached = ObjectScope(
        storageFactory: PermanentStorage.init, description: "cached")
}

/// Swinject 2.10.0, used as its README shows: `Container().register(T.self) { r in ... }` with
/// an object scope, `container.resolve(T.self)!`.
///
/// Mapping: unique is `.transient`; application is `.container`; shared is `.weak`; cached is a
/// custom `ObjectScope` with permanent storage (`.benchCached`), reset with
/// `resetObjectScope(_:)`; constructor injection resolves through the `Resolver` the factory
/// receives. Swinject has no property wrapper: `wrapper` resolves in the owner's initialiser.
/// Swinject has no override layer: an override is a second registration of the same type, which
/// replaces the first (`override-same`), or of another type (`override-other`). The
/// single-thread scenarios use the plain `Container`, as apps do on one thread; `threads-*` use
/// `container.synchronize()`, which Swinject requires for use from several threads.
struct SwinjectScenarios: Suite {
    func measure(_ scenario: Scenario, with harness: Harness) -> Double? {
        let container = makeContainer()
        switch scenario {
        case .unique:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve((any Service).self)!) }
            }
        case .application:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(AppSettings.self)!) }
            }
        case .shared:
            let held = container.resolve(SharedThing.self)!
            return withExtendedLifetime(held) {
                harness.measure { n in
                    for _ in 0..<n { blackHole(container.resolve(SharedThing.self)!) }
                }
            }
        case .cached:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(CachedThing.self)!) }
            }
        case .chain:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(ChainA.self)!) }
            }
        case .wrapper:
            return harness.measure { n in
                for _ in 0..<n {
                    let owner = SwinjectOwner(resolver: container)
                    blackHole(owner)  // so that the owner is really allocated
                    blackHole(owner.service)
                }
            }
        case .overrideOther:
            let decoy = Decoy()
            container.register(Decoy.self) { _ in decoy }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(OverrideTarget.self)!) }
            }
        case .overrideSame:
            let mock = OverrideTarget()
            container.register(OverrideTarget.self) { _ in mock }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(OverrideTarget.self)!) }
            }
        case .threads1, .threads2:
            let resolver = SynchronizedResolver(resolver: container.synchronize())
            return harness.measureThreads(scenario == .threads1 ? 1 : 2) { thread, n in
                if thread == 0 {
                    for _ in 0..<n { blackHole(resolver.resolver.resolve(AppSettings.self)!) }
                } else {
                    for _ in 0..<n { blackHole(resolver.resolver.resolve(ThreadSettings.self)!) }
                }
            }
        case .registrations10, .registrations1000, .firstResolution:
            let count = scenario.registrationCount
            let registrationsContainer = Container()
            for register in swinjectRegistrations.prefix(count) { register(registrationsContainer) }
            let order: [() -> AnyObject] = registrationRoundRobin(
                swinjectRegistrationResolvers, count: count
            ).map { resolve in { resolve(registrationsContainer) } }
            return measureRegistrationOrder(scenario, order, with: harness)
        case .firstAfterReset:
            return harness.measure { n in
                for _ in 0..<n {
                    container.resetObjectScope(.benchCached)
                    blackHole(container.resolve(ResetThing.self)!)
                }
            }
        case .callSitesFileA, .callSitesFileB, .callSitesModule2, .callSitesKeysModule:
            return nil  // InjectableKit only: its memo is per keypath object
        case .cachedLayerKept, .cachedLayerInEffect:
            return nil  // InjectableKit only: its task-local layers
        case .cachedCollection:
            return nil  // Swinject has no collection that registrations contribute to
        case .resetValueOf10, .resetValueOf100k:
            return nil  // Swinject resets a whole object scope, not one value
        case .traceOff, .traceOn, .keyPathLiteral10, .keyPathLiteral1000:
            return nil  // InjectableKit's diagnostics; direct code with keypath literals
        }
    }

    /// The container of the scenarios, one registration per type.
    private func makeContainer() -> Container {
        let container = Container()
        container.register((any Service).self) { _ in ServiceImpl() }.inObjectScope(.transient)
        container.register(AppSettings.self) { _ in AppSettings() }.inObjectScope(.container)
        container.register(ThreadSettings.self) { _ in ThreadSettings() }.inObjectScope(.container)
        container.register(SharedThing.self) { _ in SharedThing() }.inObjectScope(.weak)
        container.register(CachedThing.self) { _ in CachedThing() }.inObjectScope(.benchCached)
        container.register(ChainC.self) { _ in ChainC() }.inObjectScope(.transient)
        container.register(ChainB.self) { r in ChainB(c: r.resolve(ChainC.self)!) }
            .inObjectScope(.transient)
        container.register(ChainA.self) { r in ChainA(b: r.resolve(ChainB.self)!) }
            .inObjectScope(.transient)
        container.register(WrappedThing.self) { _ in WrappedThing() }.inObjectScope(.container)
        container.register(OverrideTarget.self) { _ in OverrideTarget() }
            .inObjectScope(.container)
        container.register(Decoy.self) { _ in Decoy() }.inObjectScope(.container)
        container.register(ResetThing.self) { _ in ResetThing() }.inObjectScope(.benchCached)
        return container
    }
}

/// The `wrapper` owner: Swinject has no property wrapper, so it resolves in its initialiser.
private final class SwinjectOwner {
    let service: WrappedThing
    init(resolver: any Resolver) {
        service = resolver.resolve(WrappedThing.self)!
    }
}

/// The resolver `Container.synchronize()` returns, handed to the `threads-*` threads.
private struct SynchronizedResolver: @unchecked Sendable {
    // @unchecked: a synchronized resolver serialises every resolve on the container's lock.
    let resolver: any Resolver
}
