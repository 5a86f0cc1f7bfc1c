import Foundation
import InjectableKit
import Testing

protocol ParentScreen: AnyObject, Sendable {
    var title: String { get }
}

protocol Titled {
    var title: String { get }
}

final class LiveParentScreen: ParentScreen {
    let title: String
    init(title: String = "live") { self.title = title }
}

struct TitleValue: Titled {
    let title = "value"
}

extension Injections {
    var parentScreen: any ParentScreen { shared(LiveParentScreen()) }
    var optionalParentScreen: (any ParentScreen)? { shared(LiveParentScreen(title: "optional")) }
    var titleValue: TitleValue { TitleValue() }
}

/// `@WeakLazyInjectable` takes keys declared as class-bound protocols, the usual way to inject
/// a parent. Each test resolves in a layer of its own, so they run in parallel.
struct WeakProtocolKeyTests {
    final class Child {
        @WeakLazyInjectable(\.parentScreen) var parent
        @WeakLazyInjectable(\.optionalParentScreen) var optionalParent
    }

    @Test func aClassBoundProtocolKeyIsHeldWeaklyAndReadWhileAlive() {
        Injections.withOverrides { _ in
        } operation: {
            let child = Child()
            do {
                let parent = Injections.container.resolve(\.parentScreen)
                #expect(child.parent === parent)
                #expect(child.parent?.title == "live")
                #expect(child.parent?.title == "live")  // read again, from the weak copy
            }
            #expect(child.parent == nil)
        }
    }

    @Test func anOptionalProtocolKeyIsHeldWeaklyToo() {
        Injections.withOverrides { _ in
        } operation: {
            let child = Child()
            let parent = Injections.container.resolve(\.optionalParentScreen)
            #expect(child.optionalParent === parent)
            #expect(child.optionalParent?.title == "optional")
        }
    }

    @Test func anOverrideOfTheProtocolIsHeldWeakly() {
        Injections.withOverrides {
            $0.register { Injections.shared(LiveParentScreen(title: "mock") as any ParentScreen) }
        } operation: {
            let child = Child()
            let parent = Injections.container.resolve(\.parentScreen)
            #expect(child.parent?.title == "mock")
            withExtendedLifetime(parent) {}
        }
    }

    @Test func aValueTypeKeyStopsWithAMessageWhenTheWrapperIsMade() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            final class Holder {
                @WeakLazyInjectable(\.titleValue) var title
            }
            _ = Holder()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("@WeakLazyInjectable holds its instance weakly, but TitleValue"))
        #expect(message.contains("use @LazyInjectable"))
    }
}
