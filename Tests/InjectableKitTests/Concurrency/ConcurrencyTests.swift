import Foundation
import InjectableKit
import TestSupport
import Testing

extension GlobalContainerTests {
    @Suite struct ConcurrencyTests {
        @Test func cachedInstanceIsBuiltOnceUnderConcurrentFirstAccess() {
            for _ in 0..<5 {
                Injections.Scope.cached.reset()
                let before = Counters.slowBuilds.count
                let instances = Guarded<[ObjectIdentifier]>([])
                let finished = runOnThreads(8) { _ in
                    let service = Injections.container.resolve(\.slowCached)
                    instances.withLock { $0.append(ObjectIdentifier(service)) }
                }
                #expect(finished)
                #expect(Counters.slowBuilds.count == before + 1)
                #expect(Set(instances.withLock { $0 }).count == 1)
            }
        }

        @Test func applicationInstanceIsBuiltOnceUnderConcurrentFirstAccess() {
            for _ in 0..<5 {
                Injections.Scope.application.reset()
                let before = Counters.applicationBuilds.count
                let finished = runOnThreads(8) { _ in
                    _ = Injections.container.resolve(\.slowApplication)
                }
                #expect(finished)
                #expect(Counters.applicationBuilds.count == before + 1)
            }
        }

        @Test func nestedResolutionOnManyThreadsDoesNotDeadlock() {
            for _ in 0..<20 {
                Injections.Scope.cached.reset()
                let finished = runOnThreads(6) { index in
                    // Threads enter the chain at different links, in different orders.
                    for offset in 0..<3 {
                        switch (index + offset) % 3 {
                        case 0: _ = Injections.container.resolve(\.chainTop)
                        case 1: _ = Injections.container.resolve(\.chainMiddle)
                        default: _ = Injections.container.resolve(\.chainBottom)
                        }
                    }
                }
                #expect(finished)
                let top = Injections.container.resolve(\.chainTop)
                #expect(top.child === Injections.container.resolve(\.chainMiddle))
                #expect(top.child?.child === Injections.container.resolve(\.chainBottom))
            }
        }

        @Test func resolvingWhileOtherThreadsRegisterAndResetStaysConsistent() {
            let finished = runOnThreads(6) { index in
                for round in 0..<300 {
                    switch index {
                    case 0:
                        Injections.container.register(\.firstGreeting) { MockGreeting() }
                    case 1:
                        Injections.container.reset(\.firstGreeting)
                    case 2:
                        if round % 10 == 0 { Injections.Scope.resetAll() }
                    default:
                        let text = Injections.container.resolve(\.firstGreeting).text
                        precondition(text == "live" || text == "mock", "unexpected \(text)")
                        _ = Injections.container.resolve(\.cachedConsumer)
                        _ = Injections.container.resolve(\.sharedService)
                    }
                }
            }
            #expect(finished)
            Injections.container.reset()
            #expect(Injections.container.resolve(\.firstGreeting).text == "live")
        }
    }
}
