import Foundation
import InjectableKit
import TestSupport
import Testing

final class LevelLeaf: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class LevelParent: Sendable {
    let leaf: LevelLeaf
    init(_ leaf: LevelLeaf) { self.leaf = leaf }
}

final class LevelGrand: Sendable {
    let parent: LevelParent
    init(_ parent: LevelParent) { self.parent = parent }
}

extension Injections {
    fileprivate var levelLeaf: LevelLeaf { LevelLeaf("live") }
    fileprivate var levelParent: LevelParent { cached(LevelParent(resolve(\.levelLeaf))) }
    fileprivate var levelGrand: LevelGrand { cached(LevelGrand(resolve(\.levelParent))) }
    /// Other parents of the leaf: more dependents make a change's walk, and the window in
    /// which a rebuild can read a parent the walk has not reached yet, wider.
    fileprivate subscript(levelSibling id: Int) -> LevelParent {
        cached(LevelParent(resolve(\.levelLeaf)))
    }

    fileprivate var atomicLookup: LevelLeaf { LevelLeaf("live") }

    fileprivate var onceConfig: LevelLeaf { LevelLeaf("config") }
    /// Reads its configuration, then takes a while, before its helper runs.
    fileprivate var onceService: LevelParent {
        let config = resolve(\.onceConfig)
        usleep(2_000)
        return scoped(.onceScope, LevelParent(config))
    }
    fileprivate var earlyApi: LevelLeaf { cached(LevelLeaf("live")) }
    /// Passes the dependency on through getters without helpers, before the helper runs.
    fileprivate var earlyForwarder: LevelLeaf { resolve(\.earlyForwarded) }
    fileprivate var earlyForwarded: LevelLeaf { resolve(\.earlyApi) }
    fileprivate var earlyForwardedService: LevelParent {
        let api = resolve(\.earlyForwarder)
        return cached(LevelParent(api))
    }
    /// Resolves its dependency in the getter, before its scope helper runs.
    fileprivate var earlyService: LevelParent {
        let api = resolve(\.earlyApi)
        return cached(LevelParent(api))
    }

    fileprivate var walkLeaf: LevelLeaf {
        scoped(.walkLeafScope, LevelLeaf("build \(WalkCounter.builds.increment())"))
    }
    fileprivate var walkParent: ResolvingOnDeinit { cached(ResolvingOnDeinit(resolve(\.walkLeaf))) }
    fileprivate var walkGrand: WalkGrand { cached(WalkGrand(resolve(\.walkParent))) }
}

extension Injections.Scope {
    fileprivate static let walkLeafScope = Injections.Scope.cached("walkLeafScope")
    fileprivate static let onceScope = Injections.Scope.cached("onceScope")
    fileprivate static let idleScope = Injections.Scope.cached("idleScope")
}

private enum WalkCounter {
    static let builds = Counter()
}

/// Resolves the grandparent when it goes, as a dropped instance's deinit may: what a thread
/// resolving at that moment would see.
final class ResolvingOnDeinit: Sendable {
    let leaf: LevelLeaf
    init(_ leaf: LevelLeaf) { self.leaf = leaf }
    deinit { _ = Injections.container.resolve(\.walkGrand) }
}

final class WalkGrand: Sendable {
    let parent: ResolvingOnDeinit
    init(_ parent: ResolvingOnDeinit) { self.parent = parent }
    deinit { _ = Injections.container.resolve(\.walkGrand) }
}

/// Once a change of the overrides has returned, every level of what was built from the changed
/// key is rebuilt from the new state, however many threads rebuild it at the same time; and an
/// override lookup sees one state of the registry, never a mix of two.
///
/// These tests change the global overrides from threads (which do not inherit task-local
/// layers), so they run in the serialized `GlobalContainerTests` suite, on keys of their own.
extension GlobalContainerTests {
    @Suite(aMinutePerTest) struct ChangePropagationTests {
        @Test func aCachedGrandparentIsRebuiltFromTheStateEachChangeLeaves() {
            let container = Injections.container
            defer { container.reset(\.levelLeaf) }
            for id in 0..<stressSize(quick: 200, full: 1_000) {
                _ = container.resolve(\.[levelSibling: id])
            }
            let stop = TestAtomic<Bool>(false)
            let readers = (0..<3).map { _ in
                Background {
                    while !stop.load(ordering: .relaxed) { _ = container.resolve(\.levelGrand) }
                }
            }
            var stale: [String] = []
            for round in 1...stressSize(quick: 30, full: 300) {
                let expected: String
                if round % 2 == 0 {
                    container.reset(\.levelLeaf)
                    expected = "live"
                } else {
                    container.register(\.levelLeaf) { LevelLeaf("v\(round)") }
                    expected = "v\(round)"
                }
                let grand = container.resolve(\.levelGrand)
                let parent = container.resolve(\.levelParent)
                if grand.parent.leaf.tag != expected || parent.leaf.tag != expected {
                    stale.append(
                        "round \(round): grand \(grand.parent.leaf.tag), parent \(parent.leaf.tag)")
                }
                usleep(2_000)
            }
            stop.store(true, ordering: .relaxed)
            for reader in readers { _ = reader.result(within: 10) }
            #expect(stale.isEmpty, "\(stale.prefix(5))")
        }

        @Test func aRebuildDuringAResetNeverReadsALevelTheResetHasNotReachedYet() {
            let container = Injections.container
            // The old instances' deinits resolve the grandparent while the reset is dropping
            // its dependents, in whatever order it drops them.
            for _ in 0..<20 {
                _ = container.resolve(\.walkGrand)
                Injections.Scope.walkLeafScope.reset()
                let leaf = container.resolve(\.walkLeaf)
                #expect(container.resolve(\.walkParent).leaf === leaf)
                #expect(container.resolve(\.walkGrand).parent.leaf === leaf)
            }
        }

        @Test func aDependencyResolvedBeforeTheHelperIsTrackedFromEveryCallSite() {
            let container = Injections.container
            defer { container.reset(\.earlyApi) }
            // Both keys resolved twice: the memo serves them from here on.
            for _ in 0..<2 {
                #expect(container.resolve(\.earlyApi).tag == "live")
                #expect(container.resolve(\.earlyService).leaf.tag == "live")
            }
            container.register(\.earlyApi) { LevelLeaf("mock") }
            #expect(container.resolve(\.earlyService).leaf.tag == "mock")
            container.reset(\.earlyApi)
            #expect(container.resolve(\.earlyService).leaf.tag == "live")
        }

        @Test func aDependencyReadThroughGettersWithoutHelpersBeforeTheHelperIsTracked() {
            // The forwarders' frames and the service's share what they read: the service's
            // part must hold the read its innermost forwarder made.
            let container = Injections.container
            defer { container.reset(\.earlyApi) }
            for _ in 0..<2 {
                #expect(container.resolve(\.earlyForwardedService).leaf.tag == "live")
            }
            container.register(\.earlyApi) { LevelLeaf("mock") }
            #expect(container.resolve(\.earlyForwardedService).leaf.tag == "mock")
            container.reset(\.earlyApi)
            #expect(container.resolve(\.earlyForwardedService).leaf.tag == "live")
        }

        @Test func resetsOfAnotherScopeNeverMakeAScopedInstanceTwice() {
            let container = Injections.container
            let stop = TestAtomic<Bool>(false)
            let resetter = Background {
                while !stop.load(ordering: .relaxed) { Injections.Scope.idleScope.reset() }
            }
            var extra = 0
            for _ in 0..<stressSize(quick: 5, full: 20) {
                Injections.Scope.onceScope.reset()
                let resolutions = (0..<4).map { _ in Background { container.resolve(\.onceService) }
                }
                let instances = resolutions.compactMap { $0.result(within: 10) }
                extra += Set(instances.map(ObjectIdentifier.init)).count - 1
            }
            stop.store(true, ordering: .relaxed)
            _ = resetter.result(within: 10)
            #expect(extra == 0)
        }

        @Test func anOverrideLookupSeesOneStateOfTheRegistry() {
            let container = Injections.container
            defer {
                container.reset(\.atomicLookup)
                container.reset(LevelLeaf.self)
            }
            // Every state below has an override for the key, its type or both: the live getter
            // is never the answer, and the type's override only where the key has none.
            container.register { LevelLeaf("type") }
            let stop = TestAtomic<Bool>(false)
            let wrong = TestAtomic<Int>(0)
            let reader = Background {
                while !stop.load(ordering: .relaxed) {
                    if container.resolve(\.atomicLookup).tag == "live" {
                        wrong.add(1, ordering: .relaxed)
                    }
                }
            }
            for _ in 0..<stressSize(quick: 50, full: 500) {
                container.register(\.atomicLookup) { LevelLeaf("key") }  // key and type
                container.reset(LevelLeaf.self)  // key
                container.register { LevelLeaf("type") }  // key and type
                container.reset(\.atomicLookup)  // type
            }
            stop.store(true, ordering: .relaxed)
            _ = reader.result(within: 10)
            #expect(wrong.load(ordering: .relaxed) == 0)
        }
    }
}
