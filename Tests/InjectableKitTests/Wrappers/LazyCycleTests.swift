import Foundation
import InjectableKit
import Testing

/// Owners whose lazy properties the keys below read while resolving: each one a cycle.
// @unchecked: the wrappers are never reassigned, and reading them is thread-safe.
final class LazyCycleOwner: @unchecked Sendable {
    static let shared = LazyCycleOwner()

    @LazyInjectable(\.readsItsOwnLazy) var itself
    @WeakLazyInjectable(\.readsItsOwnWeakLazy) var weakItself
    @LazyInjectable(\.lazyCycleA) var a
    @LazyInjectable(\.lazyCycleB) var b
    @LazyInjectable(\.lazyThroughEntry) var throughEntry
    @LazyInjectable(\.lazyMeetingEntry) var meetingEntry
}

final class LazyCycleNode: Sendable {
    init(_ read: (LazyCycleOwner) -> Void) { read(LazyCycleOwner.shared) }
}

extension Injections {
    var readsItsOwnLazy: LazyCycleNode { cached(LazyCycleNode { _ = $0.itself }) }
    var readsItsOwnWeakLazy: LazyCycleNode { LazyCycleNode { _ = $0.weakItself } }

    var lazyCycleA: LazyCycleNode {
        cached(
            LazyCycleNode {
                Rendezvous.meet()
                _ = $0.b
            })
    }
    var lazyCycleB: LazyCycleNode {
        cached(
            LazyCycleNode {
                Rendezvous.meet()
                _ = $0.a
            })
    }

    /// Read lazily on one thread, while another builds `lazyCycleEntry`, which reads it.
    var lazyThroughEntry: LazyCycleNode {
        LazyCycleNode { _ in
            // Long after the builder below has started waiting for this first read.
            Thread.sleep(forTimeInterval: 0.3)
            _ = resolve(\.lazyCycleEntry)
        }
    }
    var lazyCycleEntry: LazyCycleNode {
        cached(
            LazyCycleNode {
                Thread.sleep(forTimeInterval: 0.1)
                _ = $0.throughEntry
            })
    }

    /// Read lazily on one thread while another builds `meetingEntry`, which reads it: both
    /// threads close the circle at the same moment.
    var lazyMeetingEntry: LazyCycleNode {
        LazyCycleNode { _ in
            Rendezvous.meet()
            _ = resolve(\.meetingEntry)
        }
    }
    var meetingEntry: LazyCycleNode {
        cached(
            LazyCycleNode {
                Rendezvous.meet()
                _ = $0.meetingEntry
            })
    }
}

/// A lazy wrapper's first read waits for the thread resolving it; when that wait could never
/// end, the process stops with the chain instead. Each case runs in a child process (an exit
/// test).
@Suite struct LazyCycleTests {
    @Test func lazyPropertyReadByItsOwnResolutionStopsNamingTheKey() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = LazyCycleOwner.shared.itself
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(#"dependency cycle: \.readsItsOwnLazy -> \.readsItsOwnLazy"#))
        #expect(message.contains(#"@LazyInjectable(\.readsItsOwnLazy) is read again"#))
    }

    @Test func weakLazyPropertyReadByItsOwnResolutionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = LazyCycleOwner.shared.weakItself
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        // A plain getter teaches no name: the key is named from its keypath's getter, or, where
        // an optimised build merged that getter with an identical one, by its type.
        #expect(
            message.contains(#"@WeakLazyInjectable(\.readsItsOwnWeakLazy) is read again"#)
                || message.contains(#"@WeakLazyInjectable(\.<LazyCycleNode>) is read again"#))
    }

    @Test func lazyReadsWaitingForEachOtherOnTwoThreadsStopInsteadOfDeadlocking() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let group = DispatchGroup()
            let reads: [@Sendable () -> Void] = [
                { _ = LazyCycleOwner.shared.a }, { _ = LazyCycleOwner.shared.b },
            ]
            for read in reads {
                group.enter()
                Thread {
                    read()
                    group.leave()
                }.start()
            }
            _ = group.wait(timeout: .now() + 30)
            print("InjectableKit did not detect the cycle: deadlocked or finished")
            exit(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("2 threads at once"))
        #expect(
            message.contains(#"\.lazyCycleA -> \.lazyCycleB -> \.lazyCycleA"#)
                || message.contains(#"\.lazyCycleB -> \.lazyCycleA -> \.lazyCycleB"#))
    }

    @Test func lazyReadAndEntryBuildWaitingForEachOtherStopInsteadOfDeadlocking() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            // The builder of `lazyCycleEntry` waits for the first read before the reader waits
            // for the entry: the reader, closing the circle, finds it before it sleeps.
            let group = DispatchGroup()
            let reads: [@Sendable () -> Void] = [
                { _ = LazyCycleOwner.shared.throughEntry },
                { _ = Injections.container.resolve(\.lazyCycleEntry) },
            ]
            for read in reads {
                group.enter()
                Thread {
                    read()
                    group.leave()
                }.start()
            }
            _ = group.wait(timeout: .now() + 30)
            print("InjectableKit did not detect the cycle: deadlocked or finished")
            exit(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("2 threads at once"))
        #expect(
            message.contains(#"\.lazyCycleEntry -> \.lazyThroughEntry -> \.lazyCycleEntry"#)
                || message.contains(
                    #"\.lazyThroughEntry -> \.lazyCycleEntry -> \.lazyThroughEntry"#)
        )
    }

    @Test func lazyReadAndEntryBuildClosingACircleAtOnceStopInsteadOfDeadlocking() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let group = DispatchGroup()
            let reads: [@Sendable () -> Void] = [
                { _ = LazyCycleOwner.shared.meetingEntry },
                { _ = Injections.container.resolve(\.meetingEntry) },
            ]
            for read in reads {
                group.enter()
                Thread {
                    read()
                    group.leave()
                }.start()
            }
            _ = group.wait(timeout: .now() + 30)
            print("InjectableKit did not detect the cycle: deadlocked or finished")
            exit(0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("2 threads at once"))
        #expect(
            message.contains(#"\.meetingEntry -> \.lazyMeetingEntry -> \.meetingEntry"#)
                || message.contains(#"\.lazyMeetingEntry -> \.meetingEntry -> \.lazyMeetingEntry"#))
    }
}
