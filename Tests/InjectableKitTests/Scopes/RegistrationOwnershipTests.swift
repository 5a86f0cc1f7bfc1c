import Testing

@testable import InjectableKit

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

    /// A helper function without parameters: one instance, whichever key calls it.
    fileprivate func sharedLeaf() -> OwnedLeaf { cached(OwnedLeaf("shared")) }
    fileprivate var aliasA: OwnedLeaf { sharedLeaf() }
    fileprivate var aliasB: OwnedLeaf { sharedLeaf() }
    fileprivate var liveLeaf: OwnedLeaf { cached(OwnedLeaf("live")) }
    fileprivate subscript(ownedAccount id: Int) -> OwnedLeaf { cachedLeaf("account \(id)") }

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
                container.register(key, scope: .cached) { OwnedLeaf("mock \(tag)") }
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
                container.register(\.overriddenA, scope: .cached) { OwnedLeaf("mock \(version)") }
                #expect(container.resolve(\.overriddenA).tag == "mock \(version)")
            }
        }
    }

    @Test func keysThatCallOneHelperWithoutParametersShareItsInstance() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.aliasA) === container.resolve(\.aliasB))
        }
    }

    @Test func anOverrideThatReadsAPropertyServesThatPropertysInstance() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            container.register(\.overriddenA) { Injections.container.liveLeaf }
            #expect(container.resolve(\.overriddenA) === container.resolve(\.liveLeaf))
        }
    }

    @Test func aHelperFunctionsInstancesPerArgumentGoWithAScopeReset() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            for id in 0..<100 { _ = container.resolve(\.[ownedAccount: id]) }
            #expect(
                container.resolve(\.[ownedAccount: 7]) === container.resolve(\.[ownedAccount: 7]))
            #expect(container.resolve(\.[ownedAccount: 7]).tag == "account 7")
            let storage = OverrideRegistry.current.storage(for: .cached)
            #expect(storage.entryCount >= 100)
            Injections.Scope.cached.reset()
            #expect(storage.entryCount == 0)
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
