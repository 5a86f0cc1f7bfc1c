import InjectableKit
import Testing

// `LevelLeaf` and `LevelParent` are ChangePropagationTests'.
extension Injections {
    fileprivate var constantAPI: LevelLeaf { cached(LevelLeaf("live")) }
    fileprivate static let constantAPIKey = \Injections.constantAPI
    fileprivate var constantFeed: LevelParent {
        cached(LevelParent(resolve(Self.constantAPIKey)))
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
            #expect(container.resolve(\.constantFeed).leaf === container.resolve(\.constantAPI))
            #expect(
                container.resolve(Injections.constantAPIKey) === container.resolve(\.constantAPI))
        }
    }

    @Test func overridingTheKeyRebuildsWhatWasBuiltThroughItsConstant() {
        Injections.withOverrides { _ in
        } operation: {
            let container = Injections.container
            #expect(container.resolve(\.constantFeed).leaf.tag == "live")
            container.register(\.constantAPI) { LevelLeaf("mock") }
            #expect(container.resolve(\.constantFeed).leaf.tag == "mock")
            container.reset(\.constantAPI)
            #expect(container.resolve(\.constantFeed).leaf.tag == "live")
        }
    }
}
