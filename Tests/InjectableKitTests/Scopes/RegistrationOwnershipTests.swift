import InjectableKit
import Testing

// Each test runs in its own `withOverrides` layer, whose overrides and scope caches are its
// own, so the suite runs in parallel with the others.

final class OwnedLeaf: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class OwnedParent: Sendable {
    let leaf: OwnedLeaf
    init(_ leaf: OwnedLeaf) { self.leaf = leaf }
}

protocol OwnedService: Sendable {}
final class LiveOwnedService: OwnedService {}

extension Injections {
    /// An app's own helper around a scope helper: every registration that calls it shares the
    /// helper's call site.
    fileprivate func cachedLeaf(_ tag: String) -> OwnedLeaf { cached(OwnedLeaf(tag)) }
    fileprivate var primaryLeaf: OwnedLeaf { cachedLeaf("primary") }
    fileprivate var backupLeaf: OwnedLeaf { cachedLeaf("backup") }

    fileprivate var ownedApi: OwnedLeaf { OwnedLeaf("live") }
    /// Resolves its dependency in the getter, before its scope helper runs.
    fileprivate var serviceResolvingFirst: OwnedParent {
        let api = resolve(\.ownedApi)
        return cached(OwnedParent(api))
    }

    fileprivate var ownedSingleton: any OwnedService { application(LiveOwnedService()) }

    fileprivate var overriddenA: OwnedLeaf { OwnedLeaf("live A") }
    fileprivate var overriddenB: OwnedLeaf { OwnedLeaf("live B") }
}

@Suite struct RegistrationOwnershipTests {
    @Test func twoRegistrationsThatShareAHelperFunctionHoldTwoInstances() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.primaryLeaf).tag == "primary")
            #expect(container.resolve(\.backupLeaf).tag == "backup")
            #expect(container.resolve(\.primaryLeaf) === container.resolve(\.primaryLeaf))
        }
    }

    @Test func overridesRegisteredFromOneClosureSiteHoldAnInstanceEachPerKey() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            let keys: [(KeyPath<Injections, OwnedLeaf>, String)] = [
                (\.overriddenA, "A"), (\.overriddenB, "B"),
            ]
            for (key, tag) in keys {
                container.register(key) { Injections.cached(OwnedLeaf("mock \(tag)")) }
            }
            #expect(container.resolve(\.overriddenA).tag == "mock A")
            #expect(container.resolve(\.overriddenB).tag == "mock B")
        }
    }

    @Test func aReplacedCachingOverrideServesTheNewFactorysInstance() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            for version in 1...3 {
                container.register(\.overriddenA) {
                    Injections.cached(OwnedLeaf("mock \(version)"))
                }
                #expect(container.resolve(\.overriddenA).tag == "mock \(version)")
            }
        }
    }

    @Test func aDependencyResolvedInTheGetterBeforeItsHelperIsTracked() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.serviceResolvingFirst).leaf.tag == "live")
            container.register(\.ownedApi) { OwnedLeaf("mock") }
            #expect(container.resolve(\.serviceResolvingFirst).leaf.tag == "mock")
            container.reset(\.ownedApi)
            #expect(container.resolve(\.serviceResolvingFirst).leaf.tag == "live")
        }
    }

    @Test func aTypeOverrideThatServesNoKeyKeepsTheApplicationInstance() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            let first = container.resolve(\.ownedSingleton)
            // No key is declared `LiveOwnedService`: this override serves nothing.
            container.register { LiveOwnedService() }
            #expect(first as AnyObject === container.resolve(\.ownedSingleton) as AnyObject)
        }
    }
}
