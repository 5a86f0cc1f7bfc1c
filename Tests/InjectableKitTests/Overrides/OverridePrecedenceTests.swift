import InjectableKit
import Testing

protocol Ranked: Sendable {
    var origin: String { get }
}

struct RankedValue: Ranked {
    let origin: String
}

final class RankedObject: Ranked {
    let origin = "cached object"
}

final class RankedHolder: Sendable {
    let ranked: any Ranked
    init(_ ranked: any Ranked) { self.ranked = ranked }
}

extension Injections {
    var rankedPlain: any Ranked { RankedValue(origin: "live") }
    var rankedOther: any Ranked { RankedValue(origin: "live other") }
    var rankedHolder: RankedHolder { cached(RankedHolder(resolve(\.rankedPlain))) }
    /// The helper holds a `RankedObject`; the key is declared `any Ranked`.
    var rankedCachedObject: any Ranked { cached(RankedObject()) }
}

/// Which override serves a key when several layers have one. A key's own override beats one for
/// its type wherever each was registered; among overrides of one kind, the innermost layer's
/// wins, and the global registry's comes last. These tests run in layers of their own, so they
/// run in parallel with the rest.
struct OverridePrecedenceTests {
    @Test func anOuterLayersKeyOverrideWinsOverAnInnerLayersTypeOverride() {
        Injections.withOverrides {
            $0.register(\.rankedPlain) { RankedValue(origin: "outer key") }
        } operation: {
            Injections.withOverrides {
                $0.register { RankedValue(origin: "inner type") as any Ranked }
            } operation: {
                #expect(Injections.container.resolve(\.rankedPlain).origin == "outer key")
                // A key with no override of its own takes the type's.
                #expect(Injections.container.resolve(\.rankedOther).origin == "inner type")
            }
        }
    }

    @Test func anInnerLayerWinsAmongOverridesOfOneKind() {
        Injections.withOverrides {
            $0.register(\.rankedPlain) { RankedValue(origin: "outer key") }
            $0.register { RankedValue(origin: "outer type") as any Ranked }
        } operation: {
            Injections.withOverrides {
                $0.register(\.rankedPlain) { RankedValue(origin: "inner key") }
                $0.register { RankedValue(origin: "inner type") as any Ranked }
            } operation: {
                #expect(Injections.container.resolve(\.rankedPlain).origin == "inner key")
                #expect(Injections.container.resolve(\.rankedOther).origin == "inner type")
            }
        }
    }

    @Test func aKeyOverrideAddedBeneathLaterReplacesWhatALayerBuiltFromItsTypeOverride() {
        Injections.withOverrides { _ in
        } operation: {
            let outer = Injections.currentOverrides
            Injections.withOverrides {
                $0.register { RankedValue(origin: "inner type") as any Ranked }
            } operation: {
                let holder = Injections.container.resolve(\.rankedHolder)
                #expect(holder.ranked.origin == "inner type")
                outer?.register(\.rankedPlain) { RankedValue(origin: "outer key") }
                let rebuilt = Injections.container.resolve(\.rankedHolder)
                #expect(rebuilt !== holder)
                #expect(rebuilt.ranked.origin == "outer key")
            }
        }
    }

    @Test func aTypeOverrideDropsWhatAKeyOfThatDeclaredTypeCached() throws {
        let layer = Injections.makeOverrides { _ in }
        let before = Injections.withOverrides(layer) {
            Injections.container.resolve(\.rankedCachedObject) as? RankedObject
        }
        Injections.withOverrides(layer) {
            Injections.container.register { RankedValue(origin: "type") as any Ranked }
            #expect(Injections.container.resolve(\.rankedCachedObject).origin == "type")
            Injections.container.reset((any Ranked).self)
        }
        let after = Injections.withOverrides(layer) {
            Injections.container.resolve(\.rankedCachedObject) as? RankedObject
        }
        let first = try #require(before)
        let second = try #require(after)
        #expect(second !== first)
    }

    @Test func aTypeOverrideAddedBeneathLeavesWhatALayerBuiltFromItsKeyOverride() {
        Injections.withOverrides { _ in
        } operation: {
            let outer = Injections.currentOverrides
            Injections.withOverrides {
                $0.register(\.rankedPlain) { RankedValue(origin: "inner key") }
            } operation: {
                let holder = Injections.container.resolve(\.rankedHolder)
                outer?.register { RankedValue(origin: "outer type") as any Ranked }
                #expect(Injections.container.resolve(\.rankedHolder) === holder)
                #expect(holder.ranked.origin == "inner key")
            }
        }
    }
}

extension GlobalContainerTests {
    /// The global registry takes part in the rule as the outermost layer. These tests override
    /// the `any Greeting` keys globally, not the `Ranked` ones: the parallel tests above resolve
    /// those with no key override of their own, and would see a global one.
    @Suite struct GlobalOverridePrecedenceTests {
        @Test func aGlobalKeyOverrideWinsOverALayersTypeOverride() {
            defer { Injections.container.reset(\.firstGreeting) }
            Injections.container.register(\.firstGreeting) { MockGreeting("global key") }
            Injections.withOverrides {
                $0.register { MockGreeting("layer type") as any Greeting }
            } operation: {
                #expect(Injections.container.resolve(\.firstGreeting).text == "global key")
                #expect(Injections.container.resolve(\.secondGreeting).text == "layer type")
            }
        }

        @Test func aGlobalKeyOverrideReplacesWhatALayerBuiltFromItsTypeOverride() throws {
            defer { Injections.container.reset(\.greeting) }
            let layer = try #require(
                Injections.withOverrides {
                    $0.register { MockGreeting("layer type") as any Greeting }
                } operation: {
                    Injections.currentOverrides
                })
            let consumer = Injections.withOverrides(layer) {
                Injections.container.resolve(\.cachedConsumer)
            }
            #expect(consumer.greeting.text == "layer type")
            Injections.container.register(\.greeting) { MockGreeting("global key") }
            Injections.withOverrides(layer) {
                #expect(
                    Injections.container.resolve(\.cachedConsumer).greeting.text == "global key")
            }
        }

        @Test func aLayersOverrideWinsOverAGlobalOverrideOfTheSameKind() {
            defer {
                Injections.container.reset(\.firstGreeting)
                Injections.container.reset((any Greeting).self)
            }
            Injections.container.register(\.firstGreeting) { MockGreeting("global key") }
            Injections.container.register { MockGreeting("global type") as any Greeting }
            Injections.withOverrides {
                $0.register(\.firstGreeting) { MockGreeting("layer key") }
                $0.register { MockGreeting("layer type") as any Greeting }
            } operation: {
                #expect(Injections.container.resolve(\.firstGreeting).text == "layer key")
                #expect(Injections.container.resolve(\.secondGreeting).text == "layer type")
            }
        }
    }
}
