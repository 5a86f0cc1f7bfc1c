import InjectableKit
import Testing

protocol AccountProviding: AnyObject, Sendable {
    var id: Int { get }
}

final class LiveAccountProvider: AccountProviding {
    let id: Int
    init(id: Int) { self.id = id }
}

extension Injections {
    /// The helper builds `LiveAccountProvider`; the subscript hands out `any AccountProviding`.
    subscript(providedAccount id: Int) -> any AccountProviding {
        cached(LiveAccountProvider(id: id))
    }
    subscript(optionalProvidedAccount id: Int) -> (any AccountProviding)? {
        cached(LiveAccountProvider(id: id))
    }
    subscript(sharedProvidedAccount id: Int) -> any AccountProviding {
        shared(LiveAccountProvider(id: id))
    }
    /// Calls two subscripts directly in a getter of another type: each call builds.
    var providedAccountPairOrNil: ProvidedAccountPair? {
        ProvidedAccountPair(first: self[providedAccount: 1], second: self[providedAccount: 2])
    }
    /// Calls subscripts directly, not through keypaths: each call builds.
    var providedAccountPair: [any AccountProviding] {
        [self[providedAccount: 1], self[providedAccount: 2]]
    }
}

struct ProvidedAccountPair: Sendable {
    let first: any AccountProviding
    let second: any AccountProviding
}

/// A subscript key keeps its scope when its helper builds a type other than the one the
/// subscript returns, as a property does. Each test uses keys of its own, in a layer of its own.
struct SubscriptScopeTests {
    @Test func aSubscriptReturningAProtocolCachesPerArgument() {
        Injections.withOverrides { _ in
        } operation: {
            let first = Injections.container.resolve(\.[providedAccount: 1])
            #expect(Injections.container.resolve(\.[providedAccount: 1]) === first)
            let other = Injections.container.resolve(\.[providedAccount: 2])
            #expect(other !== first)
            #expect(other.id == 2)
        }
    }

    @Test func anOptionalSubscriptCachesPerArgumentToo() {
        Injections.withOverrides { _ in
        } operation: {
            let first = Injections.container.resolve(\.[optionalProvidedAccount: 7])
            #expect(first != nil)
            #expect(Injections.container.resolve(\.[optionalProvidedAccount: 7]) === first)
        }
    }

    @Test func aSharedSubscriptKeepsItsInstanceWhileHeld() {
        Injections.withOverrides { _ in
        } operation: {
            let held = Injections.container.resolve(\.[sharedProvidedAccount: 3])
            #expect(Injections.container.resolve(\.[sharedProvidedAccount: 3]) === held)
        }
    }

    @Test func subscriptsCalledDirectlyInAnOptionalGetterOfAnotherTypeBuild() {
        Injections.withOverrides { _ in
        } operation: {
            let pair = Injections.container.resolve(\.providedAccountPairOrNil)
            #expect(pair?.first.id == 1)
            #expect(pair?.second.id == 2)
        }
    }

    @Test func subscriptsCalledDirectlyInAGetterStillBuildEachTime() {
        Injections.withOverrides { _ in
        } operation: {
            let pair = Injections.container.resolve(\.providedAccountPair)
            #expect(pair.map(\.id) == [1, 2])
            #expect(Injections.container.resolve(\.providedAccountPair)[0] !== pair[0])
        }
    }
}
