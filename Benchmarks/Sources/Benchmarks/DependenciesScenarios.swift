// `Internals` SPI: `cachedValues.resetCache()`, what swift-dependencies itself calls between
// tests and previews to drop cached live values; it has no public reset.
@_spi(Internals) import Dependencies

// swift-dependencies' registrations: one `DependencyKey` and one `DependencyValues` property per
// scenario. A key's live value is built on first access and then cached per key: a singleton.
// Live values are computed (`static var`), so that a reset of the cache builds a new instance.

/// A factory client, the swift-dependencies idiom for "a new value every time" (like its
/// `\.uuid` generator): the dependency is resolved, then called.
struct ServiceFactory: Sendable {
    var make: @Sendable () -> any Service
}

/// The `chain` links as factory clients; each reads the next link with `@Dependency` when it
/// is called, so every link is resolved through the dependency values.
struct ChainAFactory: Sendable {
    var make: @Sendable () -> ChainA
}

struct ChainBFactory: Sendable {
    var make: @Sendable () -> ChainB
}

struct ChainCFactory: Sendable {
    var make: @Sendable () -> ChainC
}

private enum ServiceFactoryKey: DependencyKey {
    static var liveValue: ServiceFactory { ServiceFactory { ServiceImpl() } }
}

private enum ThreadSettingsKey: DependencyKey {
    static var liveValue: ThreadSettings { ThreadSettings() }
}

private enum AppSettingsKey: DependencyKey {
    static var liveValue: AppSettings { AppSettings() }
}

private enum CachedThingKey: DependencyKey {
    static var liveValue: CachedThing { CachedThing() }
}

private enum ChainAFactoryKey: DependencyKey {
    static var liveValue: ChainAFactory {
        @Dependency(\.benchChainB) var b
        return ChainAFactory { ChainA(b: b.make()) }
    }
}

private enum ChainBFactoryKey: DependencyKey {
    static var liveValue: ChainBFactory {
        @Dependency(\.benchChainC) var c
        return ChainBFactory { ChainB(c: c.make()) }
    }
}

private enum ChainCFactoryKey: DependencyKey {
    static var liveValue: ChainCFactory { ChainCFactory { ChainC() } }
}

private enum WrappedThingKey: DependencyKey {
    static var liveValue: WrappedThing { WrappedThing() }
}

private enum OverrideTargetKey: DependencyKey {
    static var liveValue: OverrideTarget { OverrideTarget() }
}

private enum DecoyKey: DependencyKey {
    static var liveValue: Decoy { Decoy() }
}

private enum ResetThingKey: DependencyKey {
    static var liveValue: ResetThing { ResetThing() }
}

extension DependencyValues {
    var benchService: ServiceFactory {
        get { self[ServiceFactoryKey.self] }
        set { self[ServiceFactoryKey.self] = newValue }
    }
    var benchThreadSettings: ThreadSettings {
        get { self[ThreadSettingsKey.self] }
        set { self[ThreadSettingsKey.self] = newValue }
    }

    var benchSettings: AppSettings {
        get { self[AppSettingsKey.self] }
        set { self[AppSettingsKey.self] = newValue }
    }
    var benchCached: CachedThing {
        get { self[CachedThingKey.self] }
        set { self[CachedThingKey.self] = newValue }
    }
    var benchChainA: ChainAFactory {
        get { self[ChainAFactoryKey.self] }
        set { self[ChainAFactoryKey.self] = newValue }
    }
    var benchChainB: ChainBFactory {
        get { self[ChainBFactoryKey.self] }
        set { self[ChainBFactoryKey.self] = newValue }
    }
    var benchChainC: ChainCFactory {
        get { self[ChainCFactoryKey.self] }
        set { self[ChainCFactoryKey.self] = newValue }
    }
    var benchWrapped: WrappedThing {
        get { self[WrappedThingKey.self] }
        set { self[WrappedThingKey.self] = newValue }
    }
    var benchOverrideTarget: OverrideTarget {
        get { self[OverrideTargetKey.self] }
        set { self[OverrideTargetKey.self] = newValue }
    }
    var benchDecoy: Decoy {
        get { self[DecoyKey.self] }
        set { self[DecoyKey.self] = newValue }
    }
    var benchResetThing: ResetThing {
        get { self[ResetThingKey.self] }
        set { self[ResetThingKey.self] = newValue }
    }
}

/// The `wrapper` owner: one `@Dependency` property (resolved when read).
private final class DependencyOwner {
    @Dependency(\.benchWrapped) var service
}

/// swift-dependencies 1.17.1, used as its README shows: every resolution is a `@Dependency`
/// property (here local to the loop body, one per operation), overrides are `withDependencies`.
///
/// Mapping: application and cached are the live value, cached per key (swift-dependencies has
/// one such lifetime; a reset of its cache is the `first-after-reset` row). unique and chain
/// are factory clients, resolved and then called. shared is empty: nothing is held weakly.
/// `override-*` run inside `withDependencies { $0.key = mock } operation: { ... }`.
/// `DependencyValues._current.key`, which `@Dependency` wraps, is underscored and not used.
struct DependenciesScenarios: Suite {
    func measure(_ scenario: Scenario, with harness: Harness) -> Double? {
        switch scenario {
        case .unique:
            return harness.measure { n in
                for _ in 0..<n {
                    @Dependency(\.benchService) var factory
                    blackHole(factory.make())
                }
            }
        case .application:
            return harness.measure { n in
                for _ in 0..<n {
                    @Dependency(\.benchSettings) var settings
                    blackHole(settings)
                }
            }
        case .shared:
            return nil
        case .cached:
            return harness.measure { n in
                for _ in 0..<n {
                    @Dependency(\.benchCached) var cached
                    blackHole(cached)
                }
            }
        case .chain:
            return harness.measure { n in
                for _ in 0..<n {
                    @Dependency(\.benchChainA) var factory
                    blackHole(factory.make())
                }
            }
        case .wrapper:
            return harness.measure { n in
                for _ in 0..<n {
                    let owner = DependencyOwner()
                    blackHole(owner)  // so that the owner is really allocated
                    blackHole(owner.service)
                }
            }
        case .overrideOther:
            return harness.measure { n in
                withDependencies {
                    $0.benchDecoy = Decoy()
                } operation: {
                    for _ in 0..<n {
                        @Dependency(\.benchOverrideTarget) var target
                        blackHole(target)
                    }
                }
            }
        case .overrideSame:
            let mock = OverrideTarget()
            return harness.measure { n in
                withDependencies {
                    $0.benchOverrideTarget = mock
                } operation: {
                    for _ in 0..<n {
                        @Dependency(\.benchOverrideTarget) var target
                        blackHole(target)
                    }
                }
            }
        case .threads1, .threads2:
            return harness.measureThreads(scenario == .threads1 ? 1 : 2) { thread, n in
                for _ in 0..<n {
                    if thread == 0 {
                        @Dependency(\.benchSettings) var settings
                        blackHole(settings)
                    } else {
                        @Dependency(\.benchThreadSettings) var settings
                        blackHole(settings)
                    }
                }
            }
        case .registrations10, .registrations1000, .firstResolution:
            return measureRegistrations(scenario, dependenciesRegistrationResolvers, with: harness)
        case .firstAfterReset:
            return harness.measure { n in
                for _ in 0..<n {
                    DependencyValues._current.cachedValues.resetCache()
                    @Dependency(\.benchResetThing) var thing
                    blackHole(thing)
                }
            }
        case .callSitesFileA, .callSitesFileB, .callSitesModule2, .callSitesKeysModule:
            return nil  // InjectableKit only: its memo is per keypath object
        case .cachedLayerKept, .cachedLayerInEffect:
            return nil  // InjectableKit only: its task-local layers
        case .cachedCollection:
            return nil  // swift-dependencies has no collection that dependencies contribute to
        case .resetValueOf10, .resetValueOf100k:
            return nil  // swift-dependencies has no keys with arguments
        case .traceOff, .traceOn, .keyPathLiteral10, .keyPathLiteral1000:
            return nil  // InjectableKit's diagnostics; direct code with keypath literals
        }
    }
}
