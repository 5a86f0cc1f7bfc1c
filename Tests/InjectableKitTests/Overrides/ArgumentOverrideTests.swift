import InjectableKit
import Testing

final class Session: Sendable {
    let user: String
    let device: Int
    let isMock: Bool
    init(user: String, device: Int, isMock: Bool = false) {
        self.user = user
        self.device = device
        self.isMock = isMock
    }
}

extension Injections {
    var makeArgumentAccount: @Sendable (Int) -> Account { { Account(id: $0) } }
    subscript(argumentAccount id: Int) -> Account { cached(resolve(\.makeArgumentAccount)(id)) }

    var makeSession: @Sendable (String, Int) -> Session { { Session(user: $0, device: $1) } }
    subscript(session user: String, device device: Int) -> Session {
        cached(resolve(\.makeSession)(user, device))
    }

    var makeTriple: @Sendable (Int, Int, Int) -> Int { { $0 + $1 + $2 } }
    var makeNothing: @Sendable () -> Int { { 0 } }
    var argumentAnything: any Sendable { "live" }
}

/// Overrides that take a key's arguments, through a key of function type. Each test runs in its
/// own layer, so they run in parallel.
@Suite struct ArgumentOverrideTests {
    @Test func oneOverrideServesEveryArgumentValueWithItsArgument() {
        Injections.withOverrides {
            $0.register(\.makeArgumentAccount) { id in Account(id: -id) }
        } operation: {
            #expect(Injections.container.resolve(\.[argumentAccount: 1]).id == -1)
            #expect(Injections.container.resolve(\.[argumentAccount: 2]).id == -2)
        }
    }

    @Test func theSubscriptKeepsCachingPerArgumentValueOverTheOverride() {
        Injections.withOverrides {
            $0.register(\.makeArgumentAccount) { id in Account(id: -id) }
        } operation: {
            let one = Injections.container.resolve(\.[argumentAccount: 1])
            #expect(Injections.container.resolve(\.[argumentAccount: 1]) === one)
            #expect(Injections.container.resolve(\.[argumentAccount: 2]) !== one)
        }
    }

    @Test func registeringDropsWhatTheSubscriptCachedForEveryArgument() {
        Injections.withOverrides { _ in
        } operation: {
            let live = Injections.container.resolve(\.[argumentAccount: 3])
            #expect(live.id == 3)
            Injections.container.register(\.makeArgumentAccount) { id in Account(id: id * 100) }
            #expect(Injections.container.resolve(\.[argumentAccount: 3]).id == 300)
            Injections.container.reset(\.makeArgumentAccount)
            #expect(Injections.container.resolve(\.[argumentAccount: 3]).id == 3)
        }
    }

    @Test func anOverrideOfOneArgumentValueWinsForThatValue() {
        Injections.withOverrides {
            $0.register(\.makeArgumentAccount) { id in Account(id: -id) }
            $0.register(\.[argumentAccount: 5]) { Account(id: 555) }
        } operation: {
            #expect(Injections.container.resolve(\.[argumentAccount: 5]).id == 555)
            #expect(Injections.container.resolve(\.[argumentAccount: 6]).id == -6)
        }
    }

    @Test func aKeyOfTwoArgumentsIsOverriddenWithBoth() {
        Injections.withOverrides {
            $0.register(\.makeSession) { user, device in
                Session(user: user, device: device, isMock: true)
            }
        } operation: {
            let session = Injections.container.resolve(\.[session: "ana", device: 2])
            #expect(session.isMock)
            #expect(session.user == "ana")
            #expect(session.device == 2)
        }
    }

    /// Arguments are compared with their `==`: equal arguments are one key, one cached instance
    /// and one override; any argument that differs is another key.
    @Test func argumentsAreOneKeyWhenEveryArgumentIsEqual() {
        Injections.withOverrides {
            $0.register(\.[session: "ana", device: 1]) { Session(user: "one", device: 0) }
        } operation: {
            let user = "an" + "a"
            let first = Injections.container.resolve(\.[session: user, device: 1])
            #expect(first.user == "one")
            #expect(Injections.container.resolve(\.[session: "ana", device: 2]).user == "ana")
            #expect(Injections.container.resolve(\.[session: "bob", device: 1]).user == "bob")
            let cached = Injections.container.resolve(\.[session: "bob", device: 1])
            #expect(Injections.container.resolve(\.[session: "b" + "ob", device: 1]) === cached)
        }
    }

    @Test func oneFormServesEveryNumberOfArguments() {
        Injections.withOverrides {
            $0.register(\.makeTriple) { a, b, c in a * b * c }
            $0.register(\.makeNothing) { 7 }
        } operation: {
            #expect(Injections.container.resolve(\.makeTriple)(2, 3, 4) == 24)
            #expect(Injections.container.resolve(\.makeNothing)() == 7)
        }
    }

    @Test func aKeyThatAClosureConvertsToIsOverriddenByItsValue() {
        Injections.withOverrides {
            $0.register(\.argumentAnything) { "mock" }
        } operation: {
            #expect(Injections.container.resolve(\.argumentAnything) as? String == "mock")
        }
    }
}
