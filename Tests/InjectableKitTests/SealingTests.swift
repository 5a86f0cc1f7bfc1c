import InjectableKit
import Testing

/// Sealing is for good, so each case runs in a child process (an exit test).
@Suite struct SealingTests {
    @Test func registeringAfterSealingStopsWithAMessageNamingTheType() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.seal()
            Injections.container.register(\.firstGreeting) { MockGreeting() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
        #expect(message.contains("Greeting"))
    }

    @Test func aRefusedKeyIsNamedByItsRegistrationOnceResolved() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.cachedService)  // learns the name `cachedService`
            Injections.container.seal()
            Injections.container.register(\.cachedService) { Service("mock") }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains("register(\\.cachedService) at InjectableKitTests/SealingTests.swift:")
        )
        // The message's own line (a backtrace may follow, full of addresses).
        let refusal = message.split(separator: "\n").first { $0.contains("refused") } ?? ""
        #expect(!refusal.contains("0x"))
    }

    @Test func aRefusedKeyNeverResolvedIsNamedByItsTypeAndTheCall() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.seal()
            Injections.container.reset(\.firstGreeting)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "reset(<key of type any Greeting>) at InjectableKitTests/SealingTests.swift:"))
        // The message's own line (a backtrace may follow, full of addresses).
        let refusal = message.split(separator: "\n").first { $0.contains("refused") } ?? ""
        #expect(!refusal.contains("0x"))
    }

    @Test func taskLocalOverridesAreRefusedAfterSealing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.seal()
            Injections.withOverrides { _ in
            } operation: {
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("withOverrides refused"))
    }

    @Test func aLayerCapturedBeforeSealingTakesNoOverrideAfterIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let captured = Injections.withOverrides { _ in
            } operation: {
                Injections.currentOverrides
            }
            Injections.container.seal()
            captured?.register(\.firstGreeting) { MockGreeting() }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
        #expect(message.contains("Greeting"))
    }

    @Test func aLayerCapturedBeforeSealingCannotBeEnteredAfterIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let captured = Injections.withOverrides {
                $0.register(\.firstGreeting) { MockGreeting() }
            } operation: {
                Injections.currentOverrides
            }
            Injections.container.seal()
            Injections.withOverrides(captured) {
                print(Injections.container.resolve(\.firstGreeting).text)
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
        #expect(message.contains("captured overrides"))
    }

    @Test func aLazyWrapperMadeInALayerBeforeSealingIsRefusedItsMockAfterIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            final class Owner {
                @LazyInjectable(\.firstGreeting) var greeting
            }
            let owner = Injections.withOverrides {
                $0.register(\.firstGreeting) { MockGreeting() }
            } operation: {
                Owner()
            }
            Injections.container.seal()
            print(owner.greeting.text)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
        #expect(message.contains("lazy wrapper"))
    }

    @Test func anAsyncInjectionMadeInALayerBeforeSealingIsRefusedItsConstructionAfterIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let injection = Injections.withOverrides {
                $0.register(\.asyncHost) { "mock.example" }
            } operation: {
                Injections.container.resolve(\.uniqueConnection)
            }
            Injections.container.seal()
            print(await injection.value().host)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
        #expect(
            message.contains("value() of \\.uniqueConnection, an AsyncInjection made in a layer"))
        #expect(!message.contains("captured overrides"))  // a call the test never made
    }

    @Test func aSealedContainerStillServesAsyncInjections() async {
        await #expect(processExitsWith: .success) {
            let injection = Injections.withOverrides {
                $0.register(\.asyncHost) { "mock.example" }
            } operation: {
                Injections.container.resolve(\.uniqueConnection)
            }
            _ = await injection.value()
            Injections.container.seal()
            // Built before the seal, and made outside any layer.
            let built = await injection.value()
            precondition(built.host == "mock.example")
            let live = await Injections.container.resolve(\.uniqueConnection).value()
            precondition(live.host == "live.example")
        }
    }

    @Test func aSealedContainerStillResolvesAndResetsScopes() async {
        await #expect(processExitsWith: .success) {
            Injections.container.register(\.firstGreeting) { MockGreeting("before the seal") }
            Injections.container.seal()
            precondition(Injections.container.isSealed)
            precondition(Injections.container.resolve(\.firstGreeting).text == "before the seal")
            Injections.Scope.resetAll()
            precondition(Injections.container.resolve(\.secondGreeting).text == "live")
        }
    }
}
