import CallSiteKeys
import CallSiteModule
import Foundation
import InjectableKit

// InjectableKit's registrations: one computed property per scenario, in the scope the scenario
// names (no helper: unique).
extension Injections {
    var benchService: any Service { ServiceImpl() }
    var benchSettings: AppSettings { application(AppSettings()) }
    var benchThreadSettings: ThreadSettings { application(ThreadSettings()) }
    var benchShared: SharedThing { shared(SharedThing()) }
    var benchCached: CachedThing { cached(CachedThing()) }
    var benchChainC: ChainC { ChainC() }
    var benchChainB: ChainB { ChainB(c: resolve(\.benchChainC)) }
    var benchChainA: ChainA { ChainA(b: resolve(\.benchChainB)) }
    var benchWrapped: WrappedThing { application(WrappedThing()) }
    var benchOverrideTarget: OverrideTarget { application(OverrideTarget()) }
    var benchDecoy: Decoy { application(Decoy()) }
    var benchResetThing: ResetThing { cached(ResetThing()) }
    subscript(benchValue id: Int) -> ValueThing { scoped(.benchValues, ValueThing(id: id)) }
    var benchTraced: TracedThing { application(TracedThing()) }
    var benchCollection: Contributions<CollectedThing> {
        cached(contributions(to: \.benchCollection))
    }
    var benchCollectedA: CollectedThing { cached(CollectedThing()) }
    var benchCollectedB: CollectedThing { cached(CollectedThing()) }
}

// The benchmark is the app: its hook contributes `cached-collection`'s elements (and so runs
// before every scenario's first resolution, as an app's does). Retroactive, as in any app:
// `Injections` and `AutoRegistering` are both the library's.
// swift-format-ignore: AvoidRetroactiveConformances
extension Injections: @retroactive AutoRegistering {
    /// Contributes `cached-collection`'s two elements.
    public static func registerAllServices() {
        container.contribute(\.benchCollectedA, to: \.benchCollection)
        container.contribute(\.benchCollectedB, to: \.benchCollection)
    }
}

/// The `wrapper` owner: one `@Injectable` property, resolved in its initialiser.
private final class InjectableOwner {
    @Injectable(\.benchWrapped) var service
}

/// The `call-sites` figures: measured together the first time one of the rows is asked for, so
/// that the sites first resolve the key in the same order (file A first) whichever rows a run
/// selects, and so that the figures come from the same rounds of samples.
private final class CallSiteFigures {
    /// Each site's loop, in `Scenario.callSites`' order.
    private let sites: [(Scenario, (_ iterations: Int) -> Void)] = [
        (.callSitesFileA, resolveCallSiteServiceInFileA),
        (.callSitesFileB, resolveCallSiteServiceInFileB),
        (.callSitesModule2, resolveCallSiteServiceInModule2),
        (.callSitesKeysModule, resolveCallSiteServiceInKeysModule),
    ]

    private var figures: [Scenario: Double]?

    func figure(_ scenario: Scenario, with harness: Harness) -> Double? {
        if figures == nil {
            // Each site's first resolution, before any timing: the first builds the instance,
            // and each gives the library its first sight of that site's keypath object.
            for (_, resolve) in sites { resolve(1) }
            let medians = harness.measureTogether(sites.map(\.1))
            figures = Dictionary(uniqueKeysWithValues: zip(sites.map(\.0), medians))
        }
        return figures?[scenario]
    }
}

/// InjectableKit, resolved as its README shows: `Injections.container.resolve(\.key)` (a
/// keypath literal at the call site), `@Injectable` in a class, overrides with
/// `Injections.container.register(\.key) { ... }`, resets with `Injections.Scope.cached.reset()`.
struct InjectableKitScenarios: Suite {
    private let callSites = CallSiteFigures()

    func measure(_ scenario: Scenario, with harness: Harness) -> Double? {
        let container = Injections.container
        switch scenario {
        case .unique:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchService)) }
            }
        case .application:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchSettings)) }
            }
        case .shared:
            let held = container.resolve(\.benchShared)
            return withExtendedLifetime(held) {
                harness.measure { n in
                    for _ in 0..<n { blackHole(container.resolve(\.benchShared)) }
                }
            }
        case .cached:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchCached)) }
            }
        case .callSitesFileA, .callSitesFileB, .callSitesModule2, .callSitesKeysModule:
            return callSites.figure(scenario, with: harness)
        case .cachedLayerKept:
            let kept = Injections.makeOverrides { $0.register(\.benchDecoy) { Decoy() } }
            return withExtendedLifetime(kept) {
                harness.measure { n in
                    for _ in 0..<n { blackHole(container.resolve(\.benchCached)) }
                }
            }
        case .cachedLayerInEffect:
            let entered = DispatchSemaphore(value: 0)
            let leave = DispatchSemaphore(value: 0)
            Thread {
                Injections.withOverrides({ _ in }) {
                    entered.signal()
                    leave.wait()
                }
            }.start()
            entered.wait()
            defer { leave.signal() }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchCached)) }
            }
        case .cachedCollection:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchCollection)) }
            }
        case .chain:
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchChainA)) }
            }
        case .wrapper:
            return harness.measure { n in
                for _ in 0..<n {
                    let owner = InjectableOwner()
                    blackHole(owner)  // so that the owner is really allocated
                    blackHole(owner.service)
                }
            }
        case .overrideOther:
            let decoy = Decoy()
            container.register(\.benchDecoy) { decoy }
            defer { container.reset() }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchOverrideTarget)) }
            }
        case .overrideSame:
            let mock = OverrideTarget()
            container.register(\.benchOverrideTarget) { mock }
            defer { container.reset() }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchOverrideTarget)) }
            }
        case .threads1, .threads2:
            return harness.measureThreads(scenario == .threads1 ? 1 : 2) { thread, n in
                if thread == 0 {
                    for _ in 0..<n { blackHole(Injections.container.resolve(\.benchSettings)) }
                } else {
                    for _ in 0..<n {
                        blackHole(Injections.container.resolve(\.benchThreadSettings))
                    }
                }
            }
        case .registrations10, .registrations1000, .firstResolution:
            return measureRegistrations(scenario, injectableKitRegistrationResolvers, with: harness)
        case .firstAfterReset:
            return harness.measure { n in
                for _ in 0..<n {
                    Injections.Scope.cached.reset()
                    blackHole(container.resolve(\.benchResetThing))
                }
            }
        case .resetValueOf10, .resetValueOf100k:
            for id in 0..<scenario.heldValues { blackHole(container.resolve(\.[benchValue: id])) }
            defer { Injections.Scope.benchValues.reset() }
            return harness.measure { n in
                for _ in 0..<n {
                    container.reset(\.[benchValue: 3])
                    blackHole(container.resolve(\.[benchValue: 3]))
                }
            }
        case .traceOff:
            container.trace { _ in }
            container.recordGraph()
            blackHole(container.resolve(\.benchTraced))
            container.trace(nil)
            container.stopRecordingGraph()
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchTraced)) }
            }
        case .traceOn:
            container.trace { blackHole($0) }
            defer { container.trace(nil) }
            return harness.measure { n in
                for _ in 0..<n { blackHole(container.resolve(\.benchTraced)) }
            }
        case .keyPathLiteral10, .keyPathLiteral1000:
            return nil  // direct construction only
        }
    }
}

extension Injections.Scope {
    /// The scope of the `reset one value` scenarios' argument values.
    static let benchValues = Injections.Scope.cached("benchValues")
}
