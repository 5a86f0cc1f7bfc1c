import Foundation
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

    @Test func aRefusedKeyNeverResolvedIsNamedAsWrittenWithTheCall() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.seal()
            Injections.container.reset(\.firstGreeting)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "reset(\\.firstGreeting) at InjectableKitTests/SealingTests.swift:"))
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

    @Test func aLayerMadeBeforeSealingTakesNoOverrideAfterIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.withOverrides { _ in
            } operation: {
                Injections.container.seal()
                Injections.container.register(\.firstGreeting) { MockGreeting() }
            }
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

    @Test func noChangeLandsAfterSealReturns() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            // One register holds the registry's lock (hashing its key's argument) while a
            // second one, begun before the seal, waits for it, and seal() is called.
            let holding = Thread { Injections.container.register(\.[sealBlocking: .holding]) { 0 } }
            holding.start()
            SealRace.entered.wait()
            Thread { Injections.container.register(\.sealRaced) { "mock" } }.start()
            usleep(200_000)  // the second register waits for the lock
            let sealed = DispatchSemaphore(value: 0)
            Thread {
                Injections.container.seal()
                sealed.signal()
            }.start()
            usleep(200_000)
            // Still holding the lock: seal() may not have returned, or the second register
            // must be refused once it gets the lock.
            let sealReturnedFirst = sealed.wait(timeout: .now()) == .success
            SealRace.release.signal()
            if !sealReturnedFirst { sealed.wait() }
            usleep(200_000)  // the second register, if it was let through
            if sealReturnedFirst && Injections.container.resolve(\.sealRaced) == "mock" {
                exit(0)  // a change landed after seal() had returned
            }
            // Either the second register landed before the seal, or it stopped the process.
            Injections.container.register(\.sealRaced) { "again" }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("is sealed"))
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

/// Holds the registry's lock while its key is hashed, once, until released.
private enum SealRace {
    static let entered = DispatchSemaphore(value: 0)
    static let release = DispatchSemaphore(value: 0)
    static let held = Counter()
}

private struct SealBlocking: Hashable, Sendable {
    static let holding = SealBlocking(id: 1)
    let id: Int

    func hash(into hasher: inout Hasher) {
        if id == 1 && SealRace.held.increment() == 1 {
            SealRace.entered.signal()
            SealRace.release.wait()
        }
        hasher.combine(id)
    }
}

extension Injections {
    fileprivate subscript(sealBlocking argument: SealBlocking) -> Int { argument.id }
    fileprivate var sealRaced: String { "live" }
}
