import InjectableKit
import Testing

extension GlobalContainerTests {
    @Suite struct WrapperTests {
        @Test func injectableResolvesWhenItsOwnerIsInitialised() {
            final class Owner {
                @Injectable(\.sharedService) var service
            }
            let owner = Owner()
            #expect(owner.service === Injections.container.resolve(\.sharedService))
        }

        @Test func injectableSeesOverridesRegisteredBeforeItsOwnerIsMade() {
            final class Owner {
                @Injectable(\.firstGreeting) var greeting
            }
            Injections.container.register(\.firstGreeting) { MockGreeting() }
            defer { Injections.container.reset() }
            #expect(Owner().greeting.text == "mock")
        }

        @Test func injectableValueCanBeReplacedByATest() {
            final class Owner {
                @Injectable(\.firstGreeting) var greeting
            }
            let owner = Owner()
            owner.greeting = MockGreeting("handed in")
            #expect(owner.greeting.text == "handed in")
        }

        @Test func lazyInjectableResolvesOnFirstAccessAndOnlyOnce() {
            final class Owner {
                @LazyInjectable(\.lazyService) var service
            }
            let before = Counters.lazyResolutions.count
            let owner = Owner()
            #expect(Counters.lazyResolutions.count == before)
            let first = owner.service
            #expect(Counters.lazyResolutions.count == before + 1)
            #expect(owner.service === first)
            #expect(Counters.lazyResolutions.count == before + 1)
        }

        @Test func weakLazyInjectableIsNilOnceTheInstanceIsGone() {
            final class Child {
                @WeakLazyInjectable(\.parent) var parent
            }
            let child = Child()
            do {
                let parent = Injections.container.resolve(\.parent)
                #expect(child.parent === parent)
            }
            #expect(child.parent == nil)
        }

        @Test func weakLazyInjectableAcceptsOptionalKeys() {
            final class Child {
                @WeakLazyInjectable(\.optionalParent) var parent
            }
            let parent = Injections.container.resolve(\.optionalParent)
            let child = Child()
            #expect(child.parent === parent)
        }

        @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
        @Test func injectableObjectKeepsItsViewModelAlive() {
            struct Screen {
                @InjectableObject(\.counterViewModel) var viewModel
            }
            weak var released: CounterViewModel?
            do {
                let screen = Screen()
                released = screen.viewModel
                screen.viewModel.value = 3
                #expect(Injections.container.resolve(\.counterViewModel).value == 3)
            }
            #expect(released == nil)
        }
    }
}
