import Foundation
import InjectableKit
import Testing

struct ClockClient: Sendable {
    var now: @Sendable () -> Int
    var zone: String
}

extension Injections {
    fileprivate var clockClient: ClockClient { ClockClient(now: { 1 }, zone: "live") }
    fileprivate subscript(clockFor zone: String) -> ClockClient {
        ClockClient(now: { 1 }, zone: zone)
    }
}

/// A keypath through a key (`\.clockClient.zone`) would skip the key's overrides: it stops,
/// naming the fix. Each stopping case runs in a child process (an exit test), so that the
/// override it registers (global, or in a layer) stays there.
@Suite struct KeyPathThroughKeyTests {
    @Test func resolvingAKeypathThroughAnOverriddenKeyStopsNamingTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.register(\.clockClient) { ClockClient(now: { 2 }, zone: "mock") }
            _ = Injections.container.resolve(\.clockClient.zone)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("keypath through a key"))
        #expect(message.contains("resolve(\\.date).now"))
    }

    @Test func aWrapperOfAKeypathThroughAKeyStopsAtItsFirstReadInALayer() async {
        await #expect(processExitsWith: .failure) {
            struct Owner {
                @Injectable(\.clockClient.zone) var zone
            }
            Injections.withOverrides {
                $0.register(\.clockClient) { ClockClient(now: { 2 }, zone: "mock") }
            } operation: {
                _ = Owner().zone
            }
        }
    }

    @Test func aKeypathThroughASubscriptKeyStops() async {
        await #expect(processExitsWith: .failure) {
            _ = Injections.container.resolve(\.[clockFor: "UTC"].zone)
        }
    }

    @Test func theKeyItselfResolvesItsOverride() {
        Injections.withOverrides {
            $0.register(\.clockClient) { ClockClient(now: { 2 }, zone: "mock") }
        } operation: {
            #expect(Injections.container.resolve(\.clockClient).zone == "mock")
            #expect(Injections.container.resolve(\.[clockFor: "UTC"]).zone == "UTC")
        }
    }
}
