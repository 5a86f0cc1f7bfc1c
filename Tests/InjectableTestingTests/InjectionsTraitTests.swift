import InjectableKit
import InjectableTesting
import Testing

@Suite(.injections { $0.register(\.testingClock) { FixedClock(now: "suite") } })
struct InjectionsTraitTests {
    @Test func aSuiteTraitAppliesToItsTests() {
        #expect(Injections.container.resolve(\.testingGreeter).greeting == "hello at suite")
    }

    @Test(.injections { $0.register(\.testingClock) { FixedClock(now: "test") } })
    func aTestTraitIsLayeredOverItsSuites() {
        #expect(Injections.container.resolve(\.testingClock).now == "test")
    }

    /// The key's own override wins over one for its type, wherever each was registered.
    @Test(.injections { $0.register { FixedClock(now: "type") as any Clock } })
    func theSuitesKeyOverrideWinsOverATestsTypeOverride() {
        #expect(Injections.container.resolve(\.testingClock).now == "suite")
        #expect(Injections.container.resolve(\.testingBackupClock).now == "type")
    }

    /// The trait's closure runs on the main actor, where a `@MainActor` key can be named.
    @MainActor
    @Test(
        .injections {
            $0.registerOnMainActor(\.testingViewModel) { TestingViewModel(title: "mock") }
        })
    func aMainActorKeyCanBeOverriddenByKey() {
        #expect(Injections.container.resolve(\.testingViewModel).title == "mock")
    }

    /// A key isolated to another global actor is named in a closure isolated to that actor.
    @TestingStorageActor
    @Test(
        .injections(isolated: { @TestingStorageActor in
            $0.registerOnGlobalActor(\.testingStore) { @TestingStorageActor in
                TestingStore(name: "mock")
            }
        }))
    func aGlobalActorKeyCanBeOverriddenByKeyFromTheTrait() {
        #expect(Injections.container.resolve(\.testingStore).name == "mock")
    }

    /// The key's decoration, part of its registration, runs over the trait's override too.
    @Test(.injections { $0.register(\.testingDecoratedTally) { Tally() } })
    func aKeysDecorationRunsOverTheTraitsOverride() {
        let tally = Injections.container.resolve(\.testingDecoratedTally)
        #expect(tally.count == 1)
        #expect(Injections.container.resolve(\.testingDecoratedTally) === tally)
        #expect(tally.count == 1)
    }

    @Test func eachTestStartsWithFreshScopeCaches() {
        let tally = Injections.container.resolve(\.testingCounter)
        #expect(tally.count == 0)
        tally.count += 1
    }

    @Test func eachTestStartsWithFreshScopeCachesToo() {
        let tally = Injections.container.resolve(\.testingCounter)
        #expect(tally.count == 0)
        tally.count += 1
    }

    @Suite struct Nested {
        @Test func nestedSuitesInheritTheTrait() {
            #expect(Injections.container.resolve(\.testingClock).now == "suite")
        }
    }
}

/// Sixty test cases at once, each registering its own value for the same keys, through
/// `Injections.container` itself, and checking it sees only its own: in sync code, after a
/// suspension, and in child tasks.
@Suite(.injections())
struct ParallelIsolationTests {
    @Test(arguments: 0..<60)
    func parallelTestsSeeOnlyTheirOwnOverrides(index: Int) async throws {
        let mine = "case \(index)"
        Injections.container.register(\.testingClock) { FixedClock(now: mine) }
        #expect(Injections.container.resolve(\.testingGreeter).greeting == "hello at \(mine)")
        try await Task.sleep(nanoseconds: UInt64(index % 7) * 1_000_000)
        #expect(Injections.container.resolve(\.testingClock).now == mine)
        async let child = Injections.container.resolve(\.testingClock).now
        #expect(await child == mine)
        let tally = Injections.container.resolve(\.testingCounter)
        tally.count += index
        #expect(Injections.container.resolve(\.testingCounter).count == index)
    }
}

@globalActor actor TestingStorageActor {
    static let shared = TestingStorageActor()
}

@TestingStorageActor final class TestingStore {
    let name: String
    init(name: String) { self.name = name }
}

extension Injections {
    @TestingStorageActor var testingStore: TestingStore { cached(TestingStore(name: "live")) }
}
