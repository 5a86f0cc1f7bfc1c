import Foundation
import InjectableKit
import Testing

final class CycleSession: Sendable {
    let api: CycleAPI
    init(api: CycleAPI) { self.api = api }
}

final class CycleAPI: Sendable {
    let session: CycleSession
    init(session: CycleSession) { self.session = session }
}

/// Holds two threads until both have arrived, so that each is inside its own construction.
enum Rendezvous {
    static let arrived = DispatchSemaphore(value: 0)
    static func meet() {
        arrived.signal()
        Thread.sleep(forTimeInterval: 0.2)
    }
}

extension Injections {
    var cycleSession: CycleSession { cached(CycleSession(api: resolve(\.cycleAPI))) }
    var cycleAPI: CycleAPI { CycleAPI(session: resolve(\.cycleSession)) }

    var directCycle: Node { cached(Node(id: 1, child: directCycleChild)) }
    var directCycleChild: Node { Node(id: 2, child: directCycle) }

    var asyncCycleA: AsyncInjection<Node, Never> {
        cached(AsyncInjection { await Node(id: 1, child: resolve(\.asyncCycleB).value()) })
    }
    var asyncCycleB: AsyncInjection<Node, Never> {
        cached(AsyncInjection { await Node(id: 2, child: resolve(\.asyncCycleA).value()) })
    }

    var unscopedAsyncA: AsyncInjection<Node, Never> {
        AsyncInjection { await Node(id: 1, child: resolve(\.unscopedAsyncB).value()) }
    }
    var unscopedAsyncB: AsyncInjection<Node, Never> {
        AsyncInjection { await Node(id: 2, child: resolve(\.unscopedAsyncA).value()) }
    }

    /// A chain of distinct cached constructions, each awaiting the one below it.
    subscript(asyncChain depth: Int) -> AsyncInjection<Int, Never> {
        cached(
            AsyncInjection { depth == 0 ? 0 : await resolve(\.[asyncChain: depth - 1]).value() + 1 }
        )
    }
    /// Distinct cached constructions in a circle of 300.
    subscript(asyncLoop index: Int) -> AsyncInjection<Int, Never> {
        cached(AsyncInjection { await resolve(\.[asyncLoop: (index + 1) % 300]).value() })
    }
    /// Distinct cached constructions without end.
    subscript(endlessAsync depth: Int) -> AsyncInjection<Int, Never> {
        cached(AsyncInjection { await resolve(\.[endlessAsync: depth + 1]).value() })
    }

    subscript(sameAgain id: Int) -> Node { Node(id: id, child: resolve(\.[sameAgain: id])) }
    subscript(deeper id: Int) -> Node { Node(id: id, child: resolve(\.[deeper: id + 1])) }

    var crossA: Node {
        cached(
            {
                Rendezvous.meet()
                return Node(id: 1, child: resolve(\.crossB))
            }())
    }
    var crossB: Node {
        cached(
            {
                Rendezvous.meet()
                return Node(id: 2, child: resolve(\.crossA))
            }())
    }
}

/// Each case runs in a child process (an exit test): a cycle stops the process, in release
/// builds too, and the test reads what it printed.
@Suite struct CycleTests {
    @Test func cycleStopsWithAMessageNamingTheWholeChain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.cycleSession)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(#"dependency cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#))
    }

    @Test func cycleThroughDirectMemberAccessStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.directCycle)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("dependency cycle"))
        #expect(message.contains("directCycle"))
    }

    @Test func cycleThroughEqualKeypathsMadeAtRunTimeStopsNamingTheCycleOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.[sameAgain: 1])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                #"dependency cycle: \.subscript(sameAgain:) -> \.subscript(sameAgain:). Break"#))
    }

    @Test func unboundedRecursionStopsInsteadOfOverflowingTheStack() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.[deeper: 0])
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("nested 512 deep"))
    }

    @Test func cycleBuiltOnTwoThreadsAtOnceStopsInsteadOfDeadlocking() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let group = DispatchGroup()
            for key in [\Injections.crossA, \Injections.crossB] {
                let thread = Thread {
                    _ = Injections.container.resolve(key)
                    group.leave()
                }
                group.enter()
                thread.start()
            }
            _ = group.wait(timeout: .now() + 30)
            print("InjectableKit did not detect the cycle: deadlocked or finished")
            exit(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("threads at once"))
        #expect(
            message.contains(#"\.crossA -> \.crossB -> \.crossA"#)
                || message.contains(#"\.crossB -> \.crossA -> \.crossB"#))
    }

    @Test func asyncConstructionsAwaitingEachOtherStopInsteadOfWaitingForever() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let timeout = Task.detached {
                try? await Task.sleep(nanoseconds: 30_000_000_000)
                print("InjectableKit did not detect the cycle: waiting forever")
                exit(0)
            }
            _ = await Injections.container.resolve(\.asyncCycleA).value()
            timeout.cancel()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("asynchronous constructions"))
        #expect(message.contains(#"\.asyncCycleA -> \.asyncCycleB -> \.asyncCycleA"#))
    }

    @Test func asyncConstructionsWithoutAScopeAwaitingEachOtherStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = await Injections.container.resolve(\.unscopedAsyncA).value()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("asynchronous constructions nested 257 deep"))
        #expect(message.contains(#"\.unscopedAsyncA -> \.unscopedAsyncB -> \.unscopedAsyncA"#))
    }

    @Test func deeplyNestedAsyncConstructionsOfScopedKeysAreNotTakenForACycle() async {
        await #expect(processExitsWith: .success) {
            let depth = await Injections.container.resolve(\.[asyncChain: 300]).value()
            precondition(depth == 300)
        }
    }

    @Test func aCycleOfHundredsOfScopedAsyncKeysIsReportedAsACycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = await Injections.container.resolve(\.[asyncLoop: 0]).value()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("between asynchronous constructions"))
        #expect(message.contains(#"\.subscript(asyncLoop:) -> \.subscript(asyncLoop:)"#))
    }

    @Test func unboundedAsyncRecursionThroughScopedKeysStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = await Injections.container.resolve(\.[endlessAsync: 0]).value()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("asynchronous constructions nested 10001 deep: an unbounded"))
        #expect(!message.contains("cycle?"))
    }
}
