import InjectableKit
import Testing

extension Injections {
    var constantAPI: LevelLeaf { cached(LevelLeaf("live")) }
}

/// A key's keypath written once, as a constant that getters resolve (Performance.md, "Launch"),
/// is the key: the same instance, overrides and invalidation as `resolve(\.key)`. Nested in the
/// serialized `GlobalContainerTests`, whose tests reset the global caches that the first test
/// reads; the test that overrides does so in a layer of its own.
extension GlobalContainerTests {
    @Suite struct KeyPathConstantTests {
        @Test func aKeypathConstantResolvesTheKeysOwnInstance() {
            // Outside any layer, twice each: from the second resolution, each keypath object is
            // served from its own memo slot. (Keys of this suite's own; nothing is overridden.)
            let container = Injections.container
            for _ in 0..<2 {
                #expect(container.resolve(\.constantFeed).leaf === container.resolve(\.constantAPI))
                #expect(
                    container.resolve(Injections.constantAPIKey)
                        === container.resolve(\.constantAPI))
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
}
