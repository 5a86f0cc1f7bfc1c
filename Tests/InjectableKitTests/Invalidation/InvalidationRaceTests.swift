import Foundation
import InjectableKit
import TestSupport
import Testing

/// A change made while an instance is being built reaches that instance: an override or a
/// scope reset during a build is never lost, a reset during a build does not hand out several
/// instances of one registration, and dependency edges outlive no entry.
///
/// Builds are held at a `BuildGate` (semaphores, never sleeps); every wait has a time limit, so
/// that a wrong library fails these tests instead of hanging them.
extension GlobalContainerTests {
    @Suite(aMinutePerTest) struct InvalidationRaceTests {
        // MARK: An override or a reset while a cached parent is being built

        @Test func overridingTheDependencyByKeyAfterTheParentGotItRebuildsTheParent() {
            Injections.Scope.cached.reset()
            defer { Injections.container.reset(\.raceKeyAfterDependency) }
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceKeyAfterParent) },
                    gate: RaceGates.keyAfter,
                    change: {
                        Injections.container.register(\.raceKeyAfterDependency) {
                            RaceDependency("override")
                        }
                    })
            else { return }
            #expect(parents.held.dependency.origin == "override")
            #expect(parents.later.dependency.origin == "override")
        }

        @Test func overridingTheDependencyByKeyWhileItIsBeingBuiltRebuildsTheParent() {
            Injections.Scope.cached.reset()
            defer { Injections.container.reset(\.raceKeyDuringDependency) }
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceKeyDuringParent) },
                    gate: RaceGates.keyDuring,
                    change: {
                        Injections.container.register(\.raceKeyDuringDependency) {
                            RaceDependency("override")
                        }
                    })
            else { return }
            #expect(parents.held.dependency.origin == "override")
            #expect(parents.later.dependency.origin == "override")
        }

        @Test func overridingTheDependencyByTypeAfterTheParentGotItRebuildsTheParent() {
            Injections.Scope.cached.reset()
            defer { Injections.container.reset(RaceTypeAfterDependency.self) }
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceTypeAfterParent) },
                    gate: RaceGates.typeAfter,
                    change: {
                        Injections.container.register { RaceTypeAfterDependency("override") }
                    })
            else { return }
            #expect(parents.held.dependency.origin == "override")
            #expect(parents.later.dependency.origin == "override")
        }

        @Test func overridingTheDependencyByTypeWhileItIsBeingBuiltRebuildsTheParent() {
            Injections.Scope.cached.reset()
            defer { Injections.container.reset(RaceTypeDuringDependency.self) }
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceTypeDuringParent) },
                    gate: RaceGates.typeDuring,
                    change: {
                        Injections.container.register { RaceTypeDuringDependency("override") }
                    })
            else { return }
            #expect(parents.held.dependency.origin == "override")
            #expect(parents.later.dependency.origin == "override")
        }

        @Test func resettingTheDependencysScopeAfterTheParentGotItRebuildsTheParent() {
            Injections.Scope.cached.reset()
            Injections.Scope.raceResetAfterScope.reset()
            let old = Injections.container.resolve(\.raceResetAfterDependency)
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceResetAfterParent) },
                    gate: RaceGates.resetAfter,
                    change: { Injections.Scope.raceResetAfterScope.reset() })
            else { return }
            let current = Injections.container.resolve(\.raceResetAfterDependency)
            #expect(current !== old)
            #expect(parents.held.dependency === current)
            #expect(parents.later.dependency === current)
        }

        @Test func resettingTheDependencysScopeWhileItIsBeingBuiltRebuildsTheParent() {
            Injections.Scope.cached.reset()
            Injections.Scope.raceResetDuringScope.reset()
            // The held build of the dependency, begun before the reset, is the next one.
            let heldBuild = "build \(RaceCounters.resetDuringDependencyBuilds.count + 1)"
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceResetDuringParent) },
                    gate: RaceGates.resetDuring,
                    change: { Injections.Scope.raceResetDuringScope.reset() })
            else { return }
            let current = Injections.container.resolve(\.raceResetDuringDependency)
            #expect(current.origin != heldBuild)
            #expect(parents.held.dependency === current)
            #expect(parents.later.dependency === current)
        }

        // MARK: Exactly once across a reset

        @Test func concurrentResolutionsOfAnArgumentKeyShareOneInstanceAcrossAReset() {
            guard
                let outcome = resolveOnFourThreadsAcrossAReset(
                    { Injections.container.resolve(\.[raceAccount: 7]) },
                    gate: RaceGates.account, builds: RaceCounters.accountBuilds)
            else { return }
            #expect(Set(outcome.instances.map(ObjectIdentifier.init)).count == 1)
            #expect(outcome.later === outcome.instances[0])
            #expect(outcome.builds <= 2)
        }

        @Test func concurrentResolutionsOfAKeyWithoutArgumentsShareOneInstanceAcrossAReset() {
            guard
                let outcome = resolveOnFourThreadsAcrossAReset(
                    { Injections.container.resolve(\.racePlainAccount) },
                    gate: RaceGates.plainAccount, builds: RaceCounters.plainAccountBuilds)
            else { return }
            #expect(Set(outcome.instances.map(ObjectIdentifier.init)).count == 1)
            #expect(outcome.later === outcome.instances[0])
            #expect(outcome.builds <= 2)
        }

        // MARK: Edges of freed entries

        @Test func resettingScopesNeverRebuildsAHolderThatWasNotBuiltFromThem() {
            Injections.Scope.raceHolderScope.reset()
            let before = RaceCounters.holderBuilds.count
            var holders: [RaceParent] = []
            for round in 0..<300 {
                // An argument entry, built from a dependency, then dropped and freed.
                _ = Injections.container.resolve(\.[raceArgument: round])
                Injections.Scope.raceArgumentScope.reset()
                // Built in the first round, perhaps where the freed entry was.
                holders.append(Injections.container.resolve(\.raceHolder))
                Injections.Scope.raceArgumentScope.reset()
                _ = Injections.container.resolve(\.[raceUnrelated: round])
                Injections.Scope.raceUnrelatedScope.reset()
            }
            #expect(RaceCounters.holderBuilds.count - before == 1)
            #expect(holders.allSatisfy { $0 === holders[0] })
        }

        @Test func resettingAScopeNeverRebuildsAHolderThroughTheEdgeOfAFreedEntry() {
            Injections.Scope.raceVersionedHolderScope.reset()
            Injections.Scope.raceVersionScope.reset()
            let before = RaceCounters.versionedHolderBuilds.count
            _ = Injections.container.resolve(\.raceVersionedHolder)
            // Drops the holder, rightly, and frees the entry it was built from; the rebuilt
            // holder is built from another version's entry.
            RaceCounters.holderVersion.increment()
            Injections.Scope.raceVersionScope.reset()
            var holders: [RaceParent] = []
            for round in 0..<300 {
                // A new entry, likely at the freed entry's address.
                _ = Injections.container.resolve(\.[raceFreedArgument: round])
                holders.append(Injections.container.resolve(\.raceVersionedHolder))
                Injections.Scope.raceFreedArgumentScope.reset()
            }
            #expect(RaceCounters.versionedHolderBuilds.count - before == 2)
            #expect(holders.allSatisfy { $0 === holders[0] })
        }

        // MARK: nil in an existential

        @Test func nilInAnExistentialIsNotCachedInTheCachedScope() {
            #expect(
                buildsOfThreeResolutions(
                    { Injections.container.resolve(\.raceNilInAnyCached) },
                    counter: RaceCounters.nilInAnyCachedBuilds) == 3)
        }

        @Test func nilInAnExistentialIsNotCachedInTheApplicationScope() {
            #expect(
                buildsOfThreeResolutions(
                    { Injections.container.resolve(\.raceNilInAnyApplication) },
                    counter: RaceCounters.nilInAnyApplicationBuilds) == 3)
        }

        @Test func nilInAnExistentialIsNotCachedInACustomScope() {
            #expect(
                buildsOfThreeResolutions(
                    { Injections.container.resolve(\.raceNilInAnyScoped) },
                    counter: RaceCounters.nilInAnyScopedBuilds) == 3)
        }

        @Test func nilNestedInOptionalsIsNotCached() {
            #expect(
                buildsOfThreeResolutions(
                    { Injections.container.resolve(\.raceNestedNil) },
                    counter: RaceCounters.nestedNilBuilds) == 3)
        }

        @Test func aFactoryThatOverridesItsOwnDependencyFinishes() {
            defer { Injections.container.reset(\.raceSelfChangedDependency) }
            let parent = Injections.container.resolve(\.raceSelfChangingParent)
            #expect(parent.dependency.origin == "live")
            // Not kept, since what it was built from changed: the next one sees the override.
            #expect(
                Injections.container.resolve(\.raceSelfChangingParent).dependency.origin
                    == "override")
        }

        @Test func aCachingOverrideReplacedWhileItBuildsNeverFillsTheKeyForItsReplacement() {
            Injections.Scope.cached.reset()
            defer { Injections.container.reset(\.raceReplacedDependency) }
            /// A test helper that registers a caching mock: one closure, so one call site.
            @Sendable func registerMock(_ origin: String) {
                Injections.container.register(\.raceReplacedDependency, scope: .cached) {
                    RaceGates.replaced.passing(RaceDependency(origin))
                }
            }
            registerMock("old mock")
            guard
                let parents = changeWhileHeld(
                    { Injections.container.resolve(\.raceReplacedParent) },
                    gate: RaceGates.replaced, change: { registerMock("new mock") })
            else { return }
            #expect(parents.later.dependency.origin == "new mock")
            #expect(
                Injections.container.resolve(\.raceReplacedDependency).origin == "new mock")
        }

        @Test func nilOfAnOptionalKeyIsNotCached() {
            #expect(
                buildsOfThreeResolutions(
                    { Injections.container.resolve(\.raceNilOptional) },
                    counter: RaceCounters.nilOptionalBuilds) == 3)
        }
    }
}

// MARK: - Helpers

/// Resolves a parent on a thread of its own, holds its build at `gate`, makes `change` on
/// another thread while it is held, then releases it.
///
/// - Returns: The parent the held resolution returned, and the one a resolution after it
///   returns; `nil`, after recording an issue, if a step did not finish in time.
private func changeWhileHeld(
    _ resolve: @escaping @Sendable () -> RaceParent, gate: BuildGate,
    change: @escaping @Sendable () -> Void, sourceLocation: SourceLocation = #_sourceLocation
) -> (held: RaceParent, later: RaceParent)? {
    let hold = gate.arm()
    let building = Background(resolve)
    guard hold.reached.wait(timeout: .now() + 5) == .success else {
        gate.disarm()
        Issue.record("The build never reached its gate", sourceLocation: sourceLocation)
        return nil
    }
    let changing = Background(change)
    let changed = changing.result() != nil
    #expect(changed, "The change waited for the held build", sourceLocation: sourceLocation)
    hold.released.signal()
    guard let held = building.result(), changed || changing.result() != nil else {
        Issue.record(
            "The held resolution or the change never finished", sourceLocation: sourceLocation)
        return nil
    }
    guard let later = Background(resolve).result() else {
        Issue.record("The later resolution never finished", sourceLocation: sourceLocation)
        return nil
    }
    return (held, later)
}

/// Resolves on four threads while the first one's build is held at `gate`, resets the cached
/// scope, then releases the build.
///
/// The three later threads start while the build is held; whether each one reaches the wait
/// for it before the reset or not, the instances must be the same, so the outcome does not
/// depend on the timing.
///
/// - Returns: The four instances, the one a resolution after them returns, and how many times
///   the factory ran; `nil`, after recording an issue, if a step did not finish in time.
private func resolveOnFourThreadsAcrossAReset(
    _ resolve: @escaping @Sendable () -> RaceAccount, gate: BuildGate, builds: Counter,
    sourceLocation: SourceLocation = #_sourceLocation
) -> (instances: [RaceAccount], later: RaceAccount, builds: Int)? {
    Injections.Scope.cached.reset()
    let before = builds.count
    let hold = gate.arm()
    var resolutions = [Background(resolve)]
    guard hold.reached.wait(timeout: .now() + 5) == .success else {
        gate.disarm()
        Issue.record("The first build never reached its gate", sourceLocation: sourceLocation)
        return nil
    }
    for _ in 0..<3 {
        let started = DispatchSemaphore(value: 0)
        resolutions.append(
            Background {
                started.signal()
                return resolve()
            })
        guard started.wait(timeout: .now() + 5) == .success else {
            hold.released.signal()
            Issue.record("A thread never started", sourceLocation: sourceLocation)
            return nil
        }
    }
    let resetting = Background { Injections.Scope.cached.reset() }
    let didReset = resetting.result() != nil
    #expect(didReset, "The reset waited for the held build", sourceLocation: sourceLocation)
    hold.released.signal()
    let instances = resolutions.compactMap { $0.result() }
    guard instances.count == resolutions.count, didReset || resetting.result() != nil else {
        Issue.record(
            "A resolution or the reset never finished", sourceLocation: sourceLocation)
        return nil
    }
    guard let later = Background(resolve).result() else {
        Issue.record("The later resolution never finished", sourceLocation: sourceLocation)
        return nil
    }
    return (instances, later, builds.count - before)
}

/// How many times resolving three times runs the factory that `counter` counts.
private func buildsOfThreeResolutions<Value>(_ resolve: () -> Value, counter: Counter) -> Int {
    let before = counter.count
    for _ in 0..<3 { _ = resolve() }
    return counter.count - before
}

/// One held build: the factory signals `reached`, then waits for `released`.
private final class BuildHold: Sendable {
    let reached = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
}

/// Holds the next build that passes through it, until the test releases it.
private final class BuildGate: Sendable {
    private let pending = Guarded<BuildHold?>(nil)

    /// Makes the next `passing(_:)` hold.
    ///
    /// - Returns: The hold, to wait for and to release.
    func arm() -> BuildHold {
        let hold = BuildHold()
        pending.withLock { $0 = hold }
        return hold
    }

    /// Lets the next `passing(_:)` through after all.
    func disarm() {
        pending.withLock { $0 = nil }
    }

    /// Returns `value`, after holding until the test releases it if the gate is armed. Holds
    /// at most 10 seconds, so that a test that gives up leaves no thread blocked for good.
    func passing<Value>(_ value: Value) -> Value {
        let hold = pending.withLock { pending in
            defer { pending = nil }
            return pending
        }
        if let hold {
            hold.reached.signal()
            _ = hold.released.wait(timeout: .now() + 10)
        }
        return value
    }
}

/// A value computed on a thread of its own, waited for with a time limit.
final class Background<Value: Sendable>: Sendable {
    private let value = Guarded<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Value) {
        Thread { [self] in
            let result = body()
            value.withLock { $0 = result }
            done.signal()
        }.start()
    }

    /// The value, once computed.
    ///
    /// - Parameter seconds: How long to wait for it.
    /// - Returns: The value; `nil` if it took longer than `seconds`.
    func result(within seconds: Double = 5) -> Value? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()  // so that later calls return at once
        return value.withLock { $0 }
    }
}

// MARK: - Fixtures

private protocol RaceOrigin: AnyObject, Sendable {
    var origin: String { get }
}

private final class RaceDependency: RaceOrigin {
    let origin: String
    init(_ origin: String) { self.origin = origin }
}

/// A dependency overridden by type, so of a type no other key has.
private final class RaceTypeAfterDependency: RaceOrigin {
    let origin: String
    init(_ origin: String) { self.origin = origin }
}

/// A dependency overridden by type, so of a type no other key has.
private final class RaceTypeDuringDependency: RaceOrigin {
    let origin: String
    init(_ origin: String) { self.origin = origin }
}

private final class RaceParent: Sendable {
    let dependency: any RaceOrigin
    init(_ dependency: any RaceOrigin) { self.dependency = dependency }
}

private final class RaceAccount: Sendable {
    let id: Int
    let dependency: (any RaceOrigin)?
    init(id: Int, dependency: (any RaceOrigin)? = nil) {
        self.id = id
        self.dependency = dependency
    }
}

private enum RaceGates {
    static let keyAfter = BuildGate()
    static let keyDuring = BuildGate()
    static let typeAfter = BuildGate()
    static let typeDuring = BuildGate()
    static let resetAfter = BuildGate()
    static let resetDuring = BuildGate()
    static let account = BuildGate()
    static let plainAccount = BuildGate()
    static let replaced = BuildGate()
}

private enum RaceCounters {
    static let resetDuringDependencyBuilds = Counter()
    static let accountBuilds = Counter()
    static let nestedNilBuilds = Counter()
    static let plainAccountBuilds = Counter()
    static let holderBuilds = Counter()
    static let versionedHolderBuilds = Counter()
    /// The version of `raceVersionedHolder`'s dependency.
    static let holderVersion = Counter()
    static let nilInAnyCachedBuilds = Counter()
    static let nilInAnyApplicationBuilds = Counter()
    static let nilInAnyScopedBuilds = Counter()
    static let nilOptionalBuilds = Counter()
}

extension Counter {
    /// Returns `value`, counting one build.
    fileprivate func counting<Value>(_ value: Value) -> Value {
        increment()
        return value
    }
}

extension Injections.Scope {
    fileprivate static let raceResetAfterScope = Injections.Scope.cached("raceResetAfterScope")
    fileprivate static let raceResetDuringScope = Injections.Scope.cached("raceResetDuringScope")
    fileprivate static let raceArgumentScope = Injections.Scope.cached("raceArgumentScope")
    fileprivate static let raceUnrelatedScope = Injections.Scope.cached("raceUnrelatedScope")
    fileprivate static let raceHolderScope = Injections.Scope.cached("raceHolderScope")
    fileprivate static let raceVersionScope = Injections.Scope.cached("raceVersionScope")
    fileprivate static let raceVersionedHolderScope = Injections.Scope.cached(
        "raceVersionedHolderScope")
    fileprivate static let raceFreedArgumentScope = Injections.Scope.cached(
        "raceFreedArgumentScope")
    fileprivate static let raceNilScope = Injections.Scope.cached("raceNilScope")
}

extension Injections {
    // The parent's build holds after it got its dependency.
    fileprivate var raceKeyAfterDependency: RaceDependency { RaceDependency("live") }
    fileprivate var raceKeyAfterParent: RaceParent {
        cached(RaceParent(RaceGates.keyAfter.passing(resolve(\.raceKeyAfterDependency))))
    }
    fileprivate var raceTypeAfterDependency: RaceTypeAfterDependency {
        RaceTypeAfterDependency("live")
    }
    fileprivate var raceTypeAfterParent: RaceParent {
        cached(RaceParent(RaceGates.typeAfter.passing(resolve(\.raceTypeAfterDependency))))
    }
    fileprivate var raceResetAfterDependency: RaceDependency {
        scoped(.raceResetAfterScope, RaceDependency("live"))
    }
    fileprivate var raceResetAfterParent: RaceParent {
        cached(RaceParent(RaceGates.resetAfter.passing(resolve(\.raceResetAfterDependency))))
    }

    // The dependency's own build holds, inside the parent's.
    fileprivate var raceKeyDuringDependency: RaceDependency {
        RaceGates.keyDuring.passing(RaceDependency("live"))
    }
    fileprivate var raceKeyDuringParent: RaceParent {
        cached(RaceParent(resolve(\.raceKeyDuringDependency)))
    }
    fileprivate var raceTypeDuringDependency: RaceTypeDuringDependency {
        RaceGates.typeDuring.passing(RaceTypeDuringDependency("live"))
    }
    fileprivate var raceTypeDuringParent: RaceParent {
        cached(RaceParent(resolve(\.raceTypeDuringDependency)))
    }
    fileprivate var raceResetDuringDependency: RaceDependency {
        scoped(
            .raceResetDuringScope,
            RaceGates.resetDuring.passing(
                RaceDependency("build \(RaceCounters.resetDuringDependencyBuilds.increment())")))
    }
    fileprivate var raceResetDuringParent: RaceParent {
        cached(RaceParent(resolve(\.raceResetDuringDependency)))
    }

    // A caching override replaced while it builds.
    fileprivate var raceReplacedDependency: RaceDependency { RaceDependency("live") }
    fileprivate var raceReplacedParent: RaceParent {
        cached(RaceParent(resolve(\.raceReplacedDependency)))
    }

    // Exactly once across a reset.
    fileprivate subscript(raceAccount id: Int) -> RaceAccount {
        cached(
            RaceGates.account.passing(RaceCounters.accountBuilds.counting(RaceAccount(id: id))))
    }
    fileprivate var racePlainAccount: RaceAccount {
        cached(
            RaceGates.plainAccount.passing(
                RaceCounters.plainAccountBuilds.counting(RaceAccount(id: 7))))
    }

    // Edges of freed entries.
    fileprivate var raceArgumentDependency: RaceDependency {
        scoped(.raceArgumentScope, RaceDependency("argument dependency"))
    }
    fileprivate subscript(raceArgument id: Int) -> RaceAccount {
        scoped(
            .raceArgumentScope, RaceAccount(id: id, dependency: resolve(\.raceArgumentDependency)))
    }
    fileprivate var raceUnrelatedDependency: RaceDependency { RaceDependency("unrelated") }
    fileprivate subscript(raceUnrelated id: Int) -> RaceAccount {
        scoped(
            .raceUnrelatedScope,
            RaceAccount(id: id, dependency: resolve(\.raceUnrelatedDependency)))
    }
    fileprivate var raceHolderPart: RaceDependency {
        scoped(.raceHolderScope, RaceDependency("holder part"))
    }
    fileprivate var raceHolder: RaceParent {
        scoped(
            .raceHolderScope,
            RaceCounters.holderBuilds.counting(RaceParent(resolve(\.raceHolderPart))))
    }

    fileprivate subscript(raceVersion version: Int) -> RaceDependency {
        scoped(.raceVersionScope, RaceDependency("version \(version)"))
    }
    fileprivate var raceVersionedHolder: RaceParent {
        scoped(
            .raceVersionedHolderScope,
            RaceCounters.versionedHolderBuilds.counting(
                RaceParent(resolve(\.[raceVersion: RaceCounters.holderVersion.count]))))
    }
    fileprivate subscript(raceFreedArgument id: Int) -> RaceAccount {
        scoped(.raceFreedArgumentScope, RaceAccount(id: id))
    }

    // nil in an existential.
    fileprivate var raceNilInAnyCached: any Sendable {
        cached(RaceCounters.nilInAnyCachedBuilds.counting(Int?.none as any Sendable))
    }
    fileprivate var raceNilInAnyApplication: any Sendable {
        application(RaceCounters.nilInAnyApplicationBuilds.counting(Int?.none as any Sendable))
    }
    fileprivate var raceNilInAnyScoped: any Sendable {
        scoped(.raceNilScope, RaceCounters.nilInAnyScopedBuilds.counting(Int?.none as any Sendable))
    }
    fileprivate var raceNestedNil: Int?? {
        cached(RaceCounters.nestedNilBuilds.counting(Int??.some(nil)))
    }
    fileprivate var raceSelfChangedDependency: RaceDependency { RaceDependency("live") }
    /// A factory that registers an override of the dependency it has just resolved.
    fileprivate var raceSelfChangingParent: RaceParent {
        cached(
            {
                let dependency = resolve(\.raceSelfChangedDependency)
                Injections.container.register(\.raceSelfChangedDependency) {
                    RaceDependency("override")
                }
                return RaceParent(dependency)
            }())
    }
    fileprivate var raceNilOptional: Int? {
        cached(RaceCounters.nilOptionalBuilds.counting(Int?.none))
    }
}
