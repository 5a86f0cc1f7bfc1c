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

/// A keypath through a key (`\.clockClient.zone`) would skip the key's overrides: in a test it
/// fails the test, naming the fix, and resolves as Swift applies the keypath; where no test is
/// known to record it, as outside tests, it stops. Each stopping case runs in a child process
/// (an exit test, whose body no test owns), so that the override it registers stays there.
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

    @Test func aKeypathThroughAKeyFailsTheTestAndResolvesAsSwiftAppliesIt() {
        Injections.withOverrides {
            $0.register(\.clockClient) { ClockClient(now: { 2 }, zone: "mock") }
        } operation: {
            // Twice: nothing is remembered, so each resolution fails the test again.
            for _ in 0..<2 {
                var zone: String?
                withKnownIssue {
                    zone = Injections.container.resolve(\.clockClient.zone)
                } matching: {
                    Self.namesTheFix($0)
                }
                // The key's getter, past its override: what the keypath itself gives.
                #expect(zone == "live")
            }
        }
    }

    @Test func aWrapperOfAKeypathThroughAKeyFailsTheTestAtItsFirstRead() {
        struct Owner {
            @LazyInjectable(\.[clockFor: "UTC"].zone) var zone
        }
        let owner = Owner()
        var zone: String?
        withKnownIssue {
            zone = owner.zone
        } matching: {
            Self.namesTheFix($0)
        }
        #expect(zone == "UTC")
    }

    /// Whether the issue names the fix, and is located in this file (at the test), not in the
    /// test library.
    private static func namesTheFix(_ issue: Issue) -> Bool {
        issue.sourceLocation?.fileID.hasSuffix("/KeyPathThroughKeyTests.swift") == true
            && issue.comments.contains {
                $0.rawValue.contains("keypath through a key")
                    && $0.rawValue.contains("resolve(\\.date).now")
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
