import Testing

@testable import InjectableKit

struct ConnectionError: Error, Equatable {}

final class Connection: Sendable {
    let number: Int
    let host: String
    init(number: Int, host: String) {
        self.number = number
        self.host = host
    }
}

extension Injections {
    var asyncHost: String { "live.example" }
    var asyncBuilds: Counter { application(Counter()) }
    var asyncFailures: Counter { application(Counter()) }

    /// Builds slowly, so that concurrent first accesses overlap.
    var cachedConnection: AsyncInjection<Connection, any Error> {
        cached(
            AsyncInjection { [builds = resolve(\.asyncBuilds)] in
                let number = builds.increment()
                try await Task.sleep(nanoseconds: 20_000_000)
                return Connection(number: number, host: resolve(\.asyncHost))
            })
    }
    var uniqueConnection: AsyncInjection<Connection, Never> {
        AsyncInjection { [builds = resolve(\.asyncBuilds)] in
            Connection(number: builds.increment(), host: resolve(\.asyncHost))
        }
    }
    /// Made in a test's layer and cached there: the layer's cache holds the wrapper.
    var layerConnection: AsyncInjection<Connection, Never> {
        cached(
            AsyncInjection {
                Connection(number: 0, host: Injections.container.resolve(\.asyncHost))
            })
    }
    /// Fails on its first construction only.
    var flakyConnection: AsyncInjection<Connection, ConnectionError> {
        cached(
            AsyncInjection { [failures = resolve(\.asyncFailures)] () throws(ConnectionError) in
                // Long enough for every task of the test to be waiting.
                try? await Task.sleep(nanoseconds: 100_000_000)
                if failures.increment() == 1 { throw ConnectionError() }
                return Connection(number: failures.count, host: "flaky")
            })
    }
}

/// Each test runs in its own `withOverrides` layer, and so has its own scope caches: these run
/// in parallel with each other and with every other suite.
@Suite struct AsyncInjectionTests {
    /// Whether `condition` holds within a second. Another test's override change holds every
    /// live layer for a moment (to find what it reaches), so a layer may outlive its operation
    /// briefly; a leak never ends.
    private static func becomesTrue(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return false
    }

    @Test func aScopedAsyncKeyBuildsOnceUnderConcurrentFirstAccess() async throws {
        try await inOwnLayer {
            let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await Injections.container.resolve(\.cachedConnection).value().number
                    }
                }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            #expect(numbers == [1])
            #expect(Injections.container.resolve(\.asyncBuilds).count == 1)
        }
    }

    @Test func anUnscopedAsyncKeyBuildsOncePerResolution() async {
        await inOwnLayer {
            let injection = Injections.container.resolve(\.uniqueConnection)
            let first = await injection.value()
            let again = await injection.value()
            let next = await Injections.container.resolve(\.uniqueConnection).value()
            #expect(first === again)
            #expect(next.number == first.number + 1)
        }
    }

    @Test func aFailedConstructionReachesEveryWaiterAndIsRetriedOnNextAccess() async {
        await inOwnLayer {
            let results = await withTaskGroup(of: Result<Int, ConnectionError>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do throws(ConnectionError) {
                            return .success(
                                try await Injections.container.resolve(\.flakyConnection).value()
                                    .number)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0 == .failure(ConnectionError()) })
            let retried = try? await Injections.container.resolve(\.flakyConnection).value()
            #expect(retried?.host == "flaky")
            #expect(Injections.container.resolve(\.asyncFailures).count == 2)
        }
    }

    @Test func resettingTheScopeBuildsANewInstance() async throws {
        try await inOwnLayer {
            let first = try await Injections.container.resolve(\.cachedConnection).value()
            Injections.Scope.cached.reset()
            let second = try await Injections.container.resolve(\.cachedConnection).value()
            #expect(first !== second)
            #expect(second.number == 2)
        }
    }

    @Test func theConstructionSeesTheOverridesOfTheLayerThatMadeIt() async throws {
        let injection = Injections.withOverrides {
            $0.register(\.asyncHost) { "mock.example" }
        } operation: {
            Injections.container.resolve(\.uniqueConnection)
        }
        // Awaited outside the layer, and from a detached task: the layer still applies.
        let host = await Task.detached { await injection.value().host }.value
        #expect(host == "mock.example")
    }

    @Test func aKeyOverrideReplacesTheAsyncConstruction() async {
        await Injections.withOverrides {
            $0.register(\.uniqueConnection) {
                AsyncInjection { Connection(number: 0, host: "override") }
            }
        } operation: {
            #expect(
                await Injections.container.resolve(\.uniqueConnection).value().host == "override")
        }
    }

    @Test func theWrapperInjectsTheAsyncDependency() async throws {
        struct Owner {
            @Injectable(\.cachedConnection) var connection
        }
        try await inOwnLayer {
            let owner = Owner()
            let direct = try await Injections.container.resolve(\.cachedConnection).value()
            #expect(try await owner.connection.value() === direct)
        }
    }

    @Test func aCachedInjectionNeverAwaitedDoesNotKeepItsLayerAlive() async {
        var layers: [() -> OverrideRegistry?] = []
        for index in 0..<100 {
            Injections.withOverrides {
                $0.register(\.asyncHost) { "layer \(index)" }
            } operation: {
                let layer = Injections.currentOverrides?.registry
                layers.append { [weak layer] in layer }
                _ = Injections.container.resolve(\.layerConnection)
            }
        }
        #expect(await Self.becomesTrue { layers.allSatisfy { $0() == nil } })
    }

    @Test func anInjectionAwaitedAfterItsLayerIsGoneBuildsWithThatLayersOverrides() async {
        weak var layer: OverrideRegistry?
        let injection = Injections.withOverrides {
            $0.register(\.asyncHost) { "gone.example" }
        } operation: {
            layer = Injections.currentOverrides?.registry
            return Injections.container.resolve(\.layerConnection)
        }
        #expect(await Self.becomesTrue { layer == nil })
        let host = await injection.value().host
        #expect(host == "gone.example")
    }
}
