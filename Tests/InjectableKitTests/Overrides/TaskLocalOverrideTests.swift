import Foundation
import InjectableKit
import Testing

extension Injections {
    var layeredGreeting: any LayeredGreeting { LiveGreeting() }
    var layeredConsumer: Consumer { Consumer(greeting: resolve(\.layeredGreeting)) }
    var layeredCached: Service { cached(Service("live cached")) }
}

/// Task-local overrides: each test runs in its own layer, so these run in parallel with each
/// other and with every other suite, and never see another's overrides. (A layer falls back to
/// the global overrides, so their keys are of types no serialized suite overrides.)
@Suite struct TaskLocalOverrideTests {
    @Test func overridesApplyInsideTheirOperationAndNowhereElse() {
        let inside = Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting("inside") }
        } operation: {
            Injections.container.resolve(\.layeredGreeting).text
        }
        #expect(inside == "inside")
        #expect(Injections.container.resolve(\.layeredGreeting).text == "live")
    }

    @Test func theConfigureClosureRunsInTheNewLayerNotTheEnclosingOne() {
        Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting("outer") }
        } operation: {
            let inner = Injections.withOverrides { _ in
                // The container itself, not only the value passed, registers in the new layer.
                Injections.container.register(\.layeredGreeting) { MockGreeting("inner") }
            } operation: {
                Injections.container.resolve(\.layeredGreeting).text
            }
            #expect(inner == "inner")
            #expect(Injections.container.resolve(\.layeredGreeting).text == "outer")
        }
        #expect(Injections.container.resolve(\.layeredGreeting).text == "live")
    }

    @Test func aResolutionInTheConfigureClosureResolvesInTheNewLayer() {
        var configured: (greeting: String, cached: Service)?
        let cached = Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting("configured") }
            configured = ($0.resolve(\.layeredGreeting).text, $0.resolve(\.layeredCached))
        } operation: {
            Injections.container.resolve(\.layeredCached)
        }
        #expect(configured?.greeting == "configured")
        // Built in the layer's caches: the operation finds it there, and nothing outside does.
        #expect(configured?.cached === cached)
        #expect(Injections.container.resolve(\.layeredCached) !== cached)
    }

    @Test func nestedResolutionsAndWrappersSeeTheOverrides() {
        final class Owner {
            @Injectable(\.layeredConsumer) var consumer
        }
        Injections.withOverrides {
            $0.register { MockGreeting("by type") as any LayeredGreeting }
        } operation: {
            #expect(Injections.container.resolve(\.layeredConsumer).greeting.text == "by type")
            #expect(Owner().consumer.greeting.text == "by type")
        }
    }

    @Test func childTasksSeeTheOverridesAndDetachedTasksDoNot() async {
        await Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting("task") }
        } operation: {
            async let child = Injections.container.resolve(\.layeredGreeting).text
            let grouped = await withTaskGroup(of: String.self) { group in
                group.addTask { Injections.container.resolve(\.layeredGreeting).text }
                return await group.next() ?? ""
            }
            let detached = await Task.detached {
                Injections.container.resolve(\.layeredGreeting).text
            }.value
            let overrides = Injections.currentOverrides
            let carried = await Task.detached {
                Injections.withOverrides(overrides) {
                    Injections.container.resolve(\.layeredGreeting).text
                }
            }.value
            #expect(await child == "task")
            #expect(grouped == "task")
            #expect(detached == "live")
            #expect(carried == "task")
        }
    }

    /// In a child process (an exit test), so that no other suite's layer is active meanwhile.
    @Test func aTaskThatOutlivesItsLayersOperationStillSeesTheOverrides() async {
        await #expect(processExitsWith: .success) {
            _ = Injections.container.resolve(\.layeredGreeting)  // memoised on the global path
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            let task = Injections.withOverrides {
                $0.register(\.layeredGreeting) { MockGreeting("outlived") }
            } operation: {
                Task {
                    for await _ in gate { break }  // runs once the operation has returned
                    return Injections.container.resolve(\.layeredGreeting).text
                }
            }
            open.yield()
            #expect(await task.value == "outlived")
        }
    }

    @Test func theContainerRegistersIntoTheLayerItRunsIn() {
        Injections.withOverrides { _ in
        } operation: {
            Injections.container.register(\.layeredGreeting) { MockGreeting("registered inside") }
            #expect(Injections.container.resolve(\.layeredGreeting).text == "registered inside")
            Injections.container.reset()
            #expect(Injections.container.resolve(\.layeredGreeting).text == "live")
        }
        #expect(Injections.container.resolve(\.layeredGreeting).text == "live")
    }

    @Test func anInnerLayerWinsAndFallsBackToTheOuterOne() {
        Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting("outer") }
            $0.register(\.firstGreeting) { MockGreeting("outer first") }
        } operation: {
            Injections.withOverrides {
                $0.register(\.layeredGreeting) { MockGreeting("inner") }
            } operation: {
                #expect(Injections.container.resolve(\.layeredGreeting).text == "inner")
                #expect(Injections.container.resolve(\.firstGreeting).text == "outer first")
            }
            #expect(Injections.container.resolve(\.layeredGreeting).text == "outer")
        }
    }

    /// Sixty cases at once (Swift Testing runs a parameterised test's cases in parallel), each
    /// overriding the same keys with its own value, in sync code, async code and child tasks.
    @Test(arguments: 0..<60)
    func parallelTestsEachSeeOnlyTheirOwnOverrides(index: Int) async {
        let mine = "mock \(index)"
        await Injections.withOverrides {
            $0.register(\.layeredGreeting) { MockGreeting(mine) }
            $0.register { Service(mine) }
        } operation: {
            #expect(Injections.container.resolve(\.layeredGreeting).text == mine)
            #expect(Injections.container.resolve(\.layeredConsumer).greeting.text == mine)
            try? await Task.sleep(nanoseconds: UInt64(index % 5) * 1_000_000)
            #expect(Injections.container.resolve(\.layeredCached).name == mine)
            let children = await withTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { Injections.container.resolve(\.layeredGreeting).text }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(children == Array(repeating: mine, count: 4))
        }
    }
}

extension GlobalContainerTests {
    /// Compares a layer's cache with the global one, which serialized suites reset.
    @Suite struct LayerCacheTests {
        @Test func aLayerHasItsOwnScopeCaches() {
            let global = Injections.container.resolve(\.layeredCached)
            Injections.withOverrides { _ in
            } operation: {
                let inside = Injections.container.resolve(\.layeredCached)
                #expect(inside !== global)
                #expect(Injections.container.resolve(\.layeredCached) === inside)
                Injections.Scope.cached.reset()
                #expect(Injections.container.resolve(\.layeredCached) !== inside)
            }
            #expect(Injections.container.resolve(\.layeredCached) === global)
        }
    }
}

/// A layer put in effect by code that no task runs (a plain thread, a `DispatchQueue` block),
/// and seen by the tasks that code starts; while it runs, a resolution elsewhere is unaffected.
@Suite struct LayerOutsideTasksTests {
    @Test func aLayerEnteredOnAThreadWithoutATaskReachesItsResolutionsAndTheTasksItStarts() async {
        let seen = await withCheckedContinuation { (done: CheckedContinuation<[String], Never>) in
            Thread.detachNewThread {
                Injections.withOverrides {
                    $0.register(\.layeredGreeting) { MockGreeting("thread") }
                } operation: {
                    let direct = Injections.container.resolve(\.layeredGreeting).text
                    Task {
                        let inTask = Injections.container.resolve(\.layeredGreeting).text
                        done.resume(returning: [direct, inTask])
                    }
                }
            }
        }
        #expect(seen == ["thread", "thread"])
    }

    @Test func aThreadInsideALayerLeavesOtherThreadsResolvingTheLiveValue() async {
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Injections.withOverrides {
                $0.register(\.layeredGreeting) { MockGreeting("parked") }
            } operation: {
                entered.signal()
                leave.wait()
            }
        }
        entered.wait()
        let elsewhere = await withCheckedContinuation {
            (done: CheckedContinuation<String, Never>) in
            Thread.detachNewThread {
                done.resume(returning: Injections.container.resolve(\.layeredGreeting).text)
            }
        }
        leave.signal()
        #expect(elsewhere == "live")
    }
}
