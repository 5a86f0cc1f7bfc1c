import InjectableKit
import Testing

extension Injections {
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
            Injections.container.register {
                Injections.cached(MockGreeting("first")) as any Greeting
            }
            let first = Injections.container.resolve(\.firstGreeting)
            #expect(
                Injections.container.resolve(\.firstGreeting) as AnyObject === first as AnyObject)
            Injections.container.reset()
            Injections.container.register {
                Injections.cached(MockGreeting("second")) as any Greeting
            }
            let second = Injections.container.resolve(\.firstGreeting)
            #expect(second as AnyObject !== first as AnyObject)
            Injections.container.reset()
        }
    }
}
