import InjectableKit
import Testing

final class ConstantAPI: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class ConstantFeed: Sendable {
    let api: ConstantAPI
    init(_ api: ConstantAPI) { self.api = api }
}

extension Injections {
    fileprivate var constantAPI: ConstantAPI { cached(ConstantAPI("live")) }
    fileprivate static let constantAPIKey = \Injections.constantAPI
    fileprivate var constantFeed: ConstantFeed {
        cached(ConstantFeed(resolve(Self.constantAPIKey)))
    }
}

/// A key's keypath written once, as a constant that getters resolve (Performance.md, "Launch"),
/// is the key: the same instance, overrides and invalidation as `resolve(\.key)`. Each test
/// runs in a layer of its own.
struct KeyPathConstantTests {
    @Test func aKeypathConstantResolvesTheKeysOwnInstance() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.constantFeed).api === container.resolve(\.constantAPI))
            #expect(
                container.resolve(Injections.constantAPIKey) === container.resolve(\.constantAPI))
        }
    }

    @Test func overridingTheKeyRebuildsWhatWasBuiltThroughItsConstant() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.constantFeed).api.tag == "live")
            container.register(\.constantAPI) { ConstantAPI("mock") }
            #expect(container.resolve(\.constantFeed).api.tag == "mock")
            container.reset(\.constantAPI)
            #expect(container.resolve(\.constantFeed).api.tag == "live")
        }
    }
}
