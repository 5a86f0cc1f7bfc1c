import Foundation
import InjectableKit
import Observation
import Testing

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable final class TallyViewModel {
    var count = 0
    var label = "idle"
    let greeting: any Greeting
    init(greeting: any Greeting) { self.greeting = greeting }
}

/// A main-actor type whose initialiser only the main actor may call.
@MainActor final class MainActorClock {
    let label: String
    init(label: String = "main clock") { self.label = label }
}

@globalActor actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor final class Store {
    var items: [String] = []
    init() {}
}

actor Ledger {
    private(set) var entries: [Int] = []
    func append(_ entry: Int) { entries.append(entry) }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    @MainActor var tallyViewModel: TallyViewModel {
        shared(TallyViewModel(greeting: resolve(\.isolationGreeting)))
    }
}

extension Injections {
    @MainActor var mainActorClock: MainActorClock { cached(MainActorClock()) }
    var isolationGreeting: any LayeredGreeting { LiveGreeting() }
    var ledger: Ledger { application(Ledger()) }
    @StorageActor var store: Store { cached(Store()) }
    /// A main-actor type reached from any context: built on the main actor, awaited anywhere.
    var asyncClock: AsyncInjection<MainActorClock, Never> {
        cached(AsyncInjection { await MainActorClock(label: "awaited clock") })
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor final class TallyScreen {
    @InjectableObject(\.tallyViewModel) var viewModel
    @Injectable(\.mainActorClock) var clock
}

/// Each test runs in its own `withOverrides` layer (own overrides and scope caches), so these
/// run in parallel with every other suite (over keys no serialized suite overrides globally).
@Suite(aMinutePerTest) struct IsolationTests {
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor @Test func aMainActorKeyResolvesSynchronouslyOnTheMainActor() {
        inOwnLayer {
            let screen = TallyScreen()
            #expect(screen.viewModel === Injections.container.resolve(\.tallyViewModel))
            #expect(screen.viewModel.greeting.text == "live")
            #expect(screen.clock.label == "main clock")
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor @Test func aMainActorKeyIsOverriddenWithAMainActorFactory() {
        Injections.withOverrides {
            $0.registerOnMainActor(\.mainActorClock) { MainActorClock(label: "mock clock") }
        } operation: {
            #expect(Injections.container.resolve(\.mainActorClock).label == "mock clock")
            #expect(TallyScreen().clock.label == "mock clock")
        }
    }

    @MainActor @Test func aMainActorTypeOverrideServesMainActorKeys() {
        Injections.withOverrides {
            $0.registerOnMainActor { MainActorClock(label: "by type") }
        } operation: {
            #expect(Injections.container.resolve(\.mainActorClock).label == "by type")
        }
    }

    @Test func aMainActorTypeOverrideResolvedOffTheMainActorStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.registerOnMainActor { Service("main actor mock") }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                _ = Injections.container.resolve(\.layeredCached)
                done.signal()
            }
            done.wait()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("registerOnMainActor override of Service"))
        #expect(message.contains("off the main actor"))
    }

    @Test func aMainActorKeyIsResolvedFromOtherContextsByHoppingToTheMainActor() async {
        await inOwnLayer {
            let label = await MainActor.run { Injections.container.resolve(\.mainActorClock).label }
            #expect(label == "main clock")
            let awaited = await Task.detached {
                await Injections.container.resolve(\.asyncClock).value()
            }
            .value
            #expect(awaited.label == "awaited clock")
        }
    }

    @Test func anActorRegistrationIsOneInstanceForEveryTask() async {
        await inOwnLayer {
            await withTaskGroup(of: Void.self) { group in
                for entry in 0..<20 {
                    group.addTask { await Injections.container.resolve(\.ledger).append(entry) }
                }
            }
            let entries = await Injections.container.resolve(\.ledger).entries
            #expect(entries.sorted() == Array(0..<20))
        }
    }

    @Test func aGlobalActorKeyResolvesOnItsActor() async {
        @StorageActor func add(_ item: String) -> Int {
            let store = Injections.container.resolve(\.store)
            store.items.append(item)
            return store.items.count
        }
        await inOwnLayer {
            #expect(await add("a") == 1)
            #expect(await add("b") == 2)
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor @Test func changesYieldsTheCurrentValueThenEachChange() async {
        await inOwnLayer {
            let screen = TallyScreen()
            var iterator = screen.$viewModel.changes { "\($0.label) \($0.count)" }
                .makeAsyncIterator()
            #expect(await iterator.next() == "idle 0")
            screen.viewModel.count = 1
            #expect(await iterator.next() == "idle 1")
            // Changes made before the next read are coalesced into one value.
            screen.viewModel.label = "busy"
            screen.viewModel.count = 2
            #expect(await iterator.next() == "busy 2")
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor @Test func changesIgnoresPropertiesTheReadDoesNotTouch() async {
        await inOwnLayer {
            let screen = TallyScreen()
            let changes = screen.$viewModel.changes { $0.count }
            let (seen, report) = AsyncStream.makeStream(of: Int.self)
            let loop = Task { @MainActor in
                for await count in changes {
                    report.yield(count)
                    if count == 2 { break }
                }
                report.finish()
            }
            var reports = seen.makeAsyncIterator()
            #expect(await reports.next() == 0)
            screen.viewModel.label = "not watched"
            // The main actor runs the loop now if the change woke it.
            await Task.yield()
            screen.viewModel.count = 2
            #expect(await reports.next() == 2)
            await loop.value
        }
    }

    /// Generic code over `AsyncIteratorProtocol` calls the iterator's plain `next()` (so does
    /// `for await` where the caller's isolation is unknown): it yields the same values.
    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func changesYieldsTheSameValuesToGenericCode() async throws {
        struct Screen {
            @InjectableObject(\.counterViewModel) var viewModel
        }
        try await inOwnLayer {
            let screen = Screen()
            var iterator = screen.$viewModel.changes { $0.value }.makeAsyncIterator()
            let first = try await nextFromGenericCode(&iterator)
            screen.viewModel.value = 1
            let second = try await nextFromGenericCode(&iterator)
            #expect(first == 0 && second == 1)
        }
    }

    @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor @Test func changesEndsWhenItsTaskIsCancelled() async {
        await inOwnLayer {
            let screen = TallyScreen()
            let changes = screen.$viewModel.changes { $0.count }
            let loop = Task { @MainActor in
                var values = 0
                for await _ in changes { values += 1 }
                return values
            }
            await Task.yield()
            loop.cancel()
            #expect(await loop.value <= 1)
        }
    }
}

extension Injections {
    @StorageActor var isolatedStore: Store { cached(Store()) }
}

extension Store {
    convenience init(items: [String]) {
        self.init()
        self.items = items
    }
}

/// Overrides of keys isolated to a global actor other than the main actor. Each test runs in its
/// own layer, so they run in parallel.
@Suite struct GlobalActorOverrideTests {
    @StorageActor @Test func aGlobalActorKeyIsOverriddenWithAFactoryOnThatActor() {
        Injections.withOverrides {
            $0.registerOnGlobalActor(\.isolatedStore) { @StorageActor in Store(items: ["mock"]) }
        } operation: {
            #expect(Injections.container.resolve(\.isolatedStore).items == ["mock"])
        }
    }

    @StorageActor @Test func theContainerFormOverridesAGlobalActorKeyByType() {
        Injections.withOverrides { _ in
        } operation: {
            Injections.container.registerOnGlobalActor { @StorageActor in
                Store(items: ["by type"])
            }
            #expect(Injections.container.resolve(\.isolatedStore).items == ["by type"])
        }
    }

    @Test func aGlobalActorOverrideResolvedOffItsActorStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            Injections.container.registerOnGlobalActor { @StorageActor in
                Service("storage actor mock")
            }
            _ = Injections.container.resolve(\.layeredCached)
        }
    }
}

/// The next element, read as generic code reads it: through the protocol's `next()`.
private func nextFromGenericCode<Iterator: AsyncIteratorProtocol>(
    _ iterator: inout Iterator
) async throws -> Iterator.Element? {
    try await iterator.next()
}
