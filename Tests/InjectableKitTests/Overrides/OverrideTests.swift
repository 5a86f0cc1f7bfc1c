import InjectableKit
import Testing

extension Injections {
    /// A type override of `any Greeting` keeps this key's lifetime.
    fileprivate var cachedGreeting: any Greeting { cached(LiveGreeting()) }

    /// The seed's form: mocks registered from static code, with a scope helper.
    static func registerMockGreetings() {
        container.register { self.shared(MockGreeting("static") as any Greeting) }
    }
}

/// A mock whose deinit uses the container, as a mock that logs through an injected logger does.
final class ContainerUsingMock: Greeting {
    let text = "container-using mock"
    deinit { _ = Injections.container.resolve(\.secondGreeting) }
}

extension GlobalContainerTests {
    @Suite struct OverrideTests {
        init() { Injections.container.reset() }

        @Test func typeOverrideServesEveryKeyOfThatType() {
            Injections.container.register { MockGreeting() as any Greeting }
            defer { Injections.container.reset() }
            #expect(Injections.container.resolve(\.firstGreeting).text == "mock")
            #expect(Injections.container.resolve(\.secondGreeting).text == "mock")
        }

        @Test func keyOverrideServesOnlyItsKey() {
            Injections.container.register(\.firstGreeting) { MockGreeting() }
            defer { Injections.container.reset() }
            #expect(Injections.container.resolve(\.firstGreeting).text == "mock")
            #expect(Injections.container.resolve(\.secondGreeting).text == "live")
        }

        @Test func keyOverrideWinsOverTypeOverride() {
            Injections.container.register { MockGreeting("by type") as any Greeting }
            Injections.container.register(\.firstGreeting) { MockGreeting("by key") }
            defer { Injections.container.reset() }
            #expect(Injections.container.resolve(\.firstGreeting).text == "by key")
            #expect(Injections.container.resolve(\.secondGreeting).text == "by type")
        }

        @Test func registeringDropsTheInstanceTheScopeCached() {
            let live = Injections.container.resolve(\.sharedGreeting)
            #expect(live.text == "live")
            Injections.container.register(\.sharedGreeting) { MockGreeting() }
            #expect(Injections.container.resolve(\.sharedGreeting).text == "mock")
            Injections.container.reset()
            let again = Injections.container.resolve(\.sharedGreeting)
            #expect(again.text == "live")
            #expect(again as AnyObject !== live as AnyObject)
        }

        @Test func resetOfOneKeyKeepsTheOtherOverrides() {
            Injections.container.register(\.firstGreeting) { MockGreeting() }
            Injections.container.register(\.secondGreeting) { MockGreeting() }
            defer { Injections.container.reset() }
            Injections.container.reset(\.firstGreeting)
            #expect(Injections.container.resolve(\.firstGreeting).text == "live")
            #expect(Injections.container.resolve(\.secondGreeting).text == "mock")
        }

        @Test func resetOfOneTypeDropsItsTypeOverride() {
            Injections.container.register { MockGreeting() as any Greeting }
            Injections.container.reset((any Greeting).self)
            #expect(Injections.container.resolve(\.firstGreeting).text == "live")
        }

        @Test func popRestoresTheRegistryPushSaved() {
            Injections.container.register(\.firstGreeting) { MockGreeting("outer") }
            Injections.container.push()
            Injections.container.register(\.firstGreeting) { MockGreeting("inner") }
            Injections.container.register(\.secondGreeting) { MockGreeting("inner") }
            #expect(Injections.container.resolve(\.firstGreeting).text == "inner")
            Injections.container.pop()
            #expect(Injections.container.resolve(\.firstGreeting).text == "outer")
            #expect(Injections.container.resolve(\.secondGreeting).text == "live")
            Injections.container.reset()
        }

        @Test func popToASavedLevelRestoresItWhateverWasPushedOrPoppedSince() {
            Injections.container.register(\.firstGreeting) { MockGreeting("outer") }
            Injections.container.push()  // a level beneath, which must survive
            let saved = Injections.container.push()
            Injections.container.pop()  // unbalanced: restores and drops `saved`'s level
            Injections.container.register(\.firstGreeting) { MockGreeting("leaked") }
            Injections.container.push()  // left without its pop
            Injections.container.pop(to: saved)
            #expect(Injections.container.resolve(\.firstGreeting).text == "outer")
            // The level beneath is the latest again.
            Injections.container.register(\.firstGreeting) { MockGreeting("above") }
            Injections.container.pop()
            #expect(Injections.container.resolve(\.firstGreeting).text == "outer")
            Injections.container.pop()  // nothing left to restore
            #expect(Injections.container.resolve(\.firstGreeting).text == "outer")
            Injections.container.reset()
        }

        @Test func popWithoutPushChangesNothing() {
            Injections.container.register(\.firstGreeting) { MockGreeting() }
            Injections.container.pop()
            #expect(Injections.container.resolve(\.firstGreeting).text == "mock")
            Injections.container.reset()
        }

        @Test func optionalKeyIsSetAtLoginAndClearedAtLogout() {
            #expect(Injections.container.resolve(\.currentUser) == nil)
            Injections.container.register(\.currentUser) { Service("ada") }
            #expect(Injections.container.resolve(\.currentUser)?.name == "ada")
            Injections.container.reset(\.currentUser)
            #expect(Injections.container.resolve(\.currentUser) == nil)
        }

        @Test func staticRegistrationWithAScopeHelperKeepsOneMock() {
            Injections.registerMockGreetings()
            defer { Injections.container.reset() }
            let first = Injections.container.resolve(\.firstGreeting)
            let second = Injections.container.resolve(\.secondGreeting)
            #expect(first.text == "static")
            #expect(first as AnyObject === second as AnyObject)
        }

        @Test func reregisteringAScopedMockBuildsANewOne() {
            Injections.registerMockGreetings()
            let first = Injections.container.resolve(\.firstGreeting)
            Injections.registerMockGreetings()
            let second = Injections.container.resolve(\.firstGreeting)
            #expect(first as AnyObject !== second as AnyObject)
            Injections.container.reset()
        }

        @Test func overrideReachesWrappersInitialisedAfterIt() {
            final class Owner {
                @Injectable(\.consumer) var consumer
            }
            Injections.container.register { MockGreeting("deep") as any Greeting }
            defer { Injections.container.reset() }
            #expect(Owner().consumer.greeting.text == "deep")
        }

        @Test func replacingAnOverrideWhoseCapturesUseTheContainerDoesNotDeadlock() {
            Injections.container.register(\.secondGreeting) { MockGreeting() }
            let finished = runOnThreads(1, timeout: 10) { _ in
                // Only the closure holds the mock, so replacing the closure releases it.
                Injections.container.register(\.firstGreeting) { [mock = ContainerUsingMock()] in
                    mock
                }
                Injections.container.register(\.firstGreeting) { MockGreeting("replaced") }
            }
            #expect(finished, "deadlock: a capture was released under the registry's lock")
            guard finished else { return }  // the registry is stuck; touching it would hang
            #expect(Injections.container.resolve(\.firstGreeting).text == "replaced")
            Injections.container.reset()
        }

        @Test func aCachedTypeOverrideIsDroppedWhenTheTypeOverrideIs() {
            Injections.container.register { MockGreeting("first") as any Greeting }
            let first = Injections.container.resolve(\.cachedGreeting)
            #expect(
                Injections.container.resolve(\.cachedGreeting) as AnyObject === first as AnyObject)
            Injections.container.reset()
            Injections.container.register { MockGreeting("second") as any Greeting }
            let second = Injections.container.resolve(\.cachedGreeting)
            #expect(second as AnyObject !== first as AnyObject)
            Injections.container.reset()
        }
    }
}

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
                Injections.withOverrides(outer) {
                    Injections.container.register(\.rankedPlain) {
                        RankedValue(origin: "outer key")
                    }
                }
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
                Injections.withOverrides(outer) {
                    Injections.container.register {
                        RankedValue(origin: "outer type") as any Ranked
                    }
                }
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
