import Foundation
import InjectableKit
import TestSupport
import Testing

// Bounded stress: many threads resolve every scope while others register, reset, push, pop
// and reset scopes. Each case stops by itself within seconds and fails (not hangs) if it
// stalls; the generous timeout is a deadlock guard, not a speed bound: under a sanitizer, CI's
// two cores run the other suites beside it. CI runs this suite in debug and release builds, and under both sanitizers. The
// rounds are `stressSize(quick:full:)`: by default a fortieth to a quarter of the full size,
// with as many threads.

final class StressValue: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

enum StressCounters {
    static let cachedBuilds = Counter()
    static let applicationBuilds = Counter()
}

extension Injections.Scope {
    static let stressSession = Injections.Scope.cached("stressSession")
}

extension Injections {
    var stressUnique: StressValue { StressValue("live stressUnique") }
    var stressShared: StressValue { shared(StressValue("live stressShared")) }
    var stressCached: StressValue { cached(StressValue("live stressCached")) }
    var stressSession: StressValue {
        scoped(.stressSession, StressValue("live stressSession"))
    }
    var stressApplication: StressValue {
        application(StressValue("live stressApplication"))
    }
    var stressGraph: StressValue { graph(StressValue("live stressGraph")) }
    var stressParent: (StressValue, StressValue) {
        (resolve(\.stressCached), resolve(\.stressSession))
    }
    var stressCountedCached: StressValue {
        cached(
            {
                StressCounters.cachedBuilds.increment()
                Thread.sleep(forTimeInterval: 0.001)
                return StressValue("counted cached")
            }())
    }
    var stressCountedApplication: StressValue {
        application(
            {
                StressCounters.applicationBuilds.increment()
                Thread.sleep(forTimeInterval: 0.001)
                return StressValue("counted application")
            }())
    }
}

extension GlobalContainerTests {
    @Suite struct StressTests {
        static func key(_ index: Int) -> (name: String, keyPath: KeyPath<Injections, StressValue>) {
            switch index {
            case 0: ("stressUnique", \.stressUnique)
            case 1: ("stressShared", \.stressShared)
            case 2: ("stressCached", \.stressCached)
            case 3: ("stressSession", \.stressSession)
            case 4: ("stressApplication", \.stressApplication)
            default: ("stressGraph", \.stressGraph)
            }
        }

        @Test func resolvingEveryScopeWhileOthersChangeTheContainerStaysConsistent() {
            let wrong = Guarded<[String]>([])
            let rounds = stressSize(quick: 500, full: 20_000)
            let finished = runOnThreads(8, timeout: 300) { thread in
                var generator = SplitMix64(state: UInt64(thread) &+ 0x5EED)
                let container = Injections.container
                for round in 0..<rounds {
                    let (name, keyPath) = Self.key(Int(generator.next() % 6))
                    switch thread {
                    case 0:
                        container.register(keyPath) { StressValue("mock \(name)") }
                    case 1:
                        if round % 3 == 0 {
                            container.register { StressValue("mock by type") }
                        } else {
                            container.reset(StressValue.self)
                        }
                    case 2:
                        if round % 50 == 0 { container.reset() } else { container.reset(keyPath) }
                    case 3:
                        [Injections.Scope.shared, .cached, .stressSession, .application][round % 4]
                            .reset()
                    default:
                        let value = container.resolve(keyPath)
                        let expected = ["live \(name)", "mock \(name)", "mock by type"]
                        if !expected.contains(value.label) {
                            wrong.withLock { $0.append("\(name) gave \(value.label)") }
                        }
                        let pair = container.resolve(\.stressParent)
                        if !pair.0.label.hasSuffix("stressCached") && pair.0.label != "mock by type"
                        {
                            wrong.withLock { $0.append("stressParent.0 gave \(pair.0.label)") }
                        }
                    }
                }
            }
            #expect(finished, "a thread stalled: deadlock?")
            #expect(wrong.withLock { $0 } == [])
            Injections.container.reset()
            Injections.Scope.resetAll(includingApplication: true)
            #expect(Injections.container.resolve(\.stressCached).label == "live stressCached")
        }

        @Test func pushAndPopOnManyThreadsLeaveTheRegistryAsTheyFoundIt() {
            Injections.container.reset()
            let rounds = stressSize(quick: 125, full: 5_000)
            let finished = runOnThreads(6, timeout: 300) { thread in
                let container = Injections.container
                for _ in 0..<rounds {
                    container.push()
                    container.register(\.stressUnique) { StressValue("mock stressUnique") }
                    _ = container.resolve(\.stressUnique)
                    container.pop()
                }
            }
            #expect(finished, "a thread stalled: deadlock?")
            #expect(Injections.container.resolve(\.stressUnique).label == "live stressUnique")
        }

        @Test func cachedAndApplicationInstancesAreBuiltOncePerReset() {
            let rounds = stressSize(quick: 50, full: 200)
            let cachedBefore = StressCounters.cachedBuilds.count
            let applicationBefore = StressCounters.applicationBuilds.count
            for _ in 0..<rounds {
                Injections.Scope.cached.reset()
                Injections.Scope.application.reset()
                let finished = runOnThreads(8, timeout: 20) { thread in
                    if thread % 2 == 0 {
                        _ = Injections.container.resolve(\.stressCountedCached)
                    } else {
                        _ = Injections.container.resolve(\.stressCountedApplication)
                    }
                }
                #expect(finished, "a thread stalled: deadlock?")
            }
            #expect(StressCounters.cachedBuilds.count - cachedBefore == rounds)
            #expect(StressCounters.applicationBuilds.count - applicationBefore == rounds)
        }
    }
}
