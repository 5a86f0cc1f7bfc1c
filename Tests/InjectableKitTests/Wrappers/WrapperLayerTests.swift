import Dispatch
import Foundation
import Observation
import Testing

@testable import InjectableKit

/// A greeter only these tests use, so that no serialized suite's global override reaches it.
protocol LayerGreeter: AnyObject, Sendable {
    var text: String { get }
}

final class LiveLayerGreeter: LayerGreeter {
    let text = "live"
}

final class MockLayerGreeter: LayerGreeter {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable final class LayerGreeterModel {
    let greeter: any LayerGreeter
    init(greeter: any LayerGreeter) { self.greeter = greeter }
}

/// An object a layer's scope may build and keep, with a lazy dependency of its own.
// @unchecked: the wrappers are never reassigned, and `@LazyInjectable` is safe to read from
// several threads.
final class LayerScreen: @unchecked Sendable {
    @Injectable(\.layerGreeter) var eager
    @LazyInjectable(\.layerGreeter) var lazy
}

/// A cached object that makes screens after it was built.
final class LayerCoordinator: @unchecked Sendable {
    // @unchecked: used by one test, on one thread.
    private(set) var screens: [LayerScreen] = []
    func open() { screens.append(LayerScreen()) }
}

extension Injections {
    var cachedLayerCoordinator: LayerCoordinator { cached(LayerCoordinator()) }
    var layerGreeter: any LayerGreeter { LiveLayerGreeter() }
    var sharedLayerGreeter: LiveLayerGreeter { shared(LiveLayerGreeter()) }
    var cachedLayerScreen: LayerScreen { cached(LayerScreen()) }
}

/// Wrappers made inside a layer resolve in it, even when first read after its operation has
/// returned. Each test makes its own layers, and the keys are of types nothing else
/// overrides, so these run in parallel with every other suite.
@Suite struct WrapperLayerTests {
    /// Whether `probe` reads `nil` within a second. Another test's override change holds
    /// every live layer for a moment (to find what it reaches), so a layer may outlive its
    /// operation briefly; a leak never ends.
    private static func becomesNil(_ probe: () -> AnyObject?) async -> Bool {
        for _ in 0..<1000 {
            if probe() == nil { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return false
    }

    private static let mock = { @Sendable in MockLayerGreeter() as any LayerGreeter }

    @Test func lazyWrapperReadAfterTheOperationReturnedResolvesInItsLayer() {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            LayerScreen()
        }
        #expect(screen.eager.text == "mock")
        #expect(screen.lazy.text == "mock")
    }

    @Test func lazyWrapperFirstReadOnAnotherThreadResolvesInItsLayer() async {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            LayerScreen()
        }
        let text = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: screen.lazy.text) }
        }
        #expect(text == "mock")
    }

    @Test func lazyWrapperFirstReadInADetachedTaskResolvesInItsLayer() async {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            LayerScreen()
        }
        let text = await Task.detached { screen.lazy.text }.value
        #expect(text == "mock")
    }

    @Test func lazyWrapperFirstReadInsideAnotherLayerStillResolvesInItsOwn() {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter) { MockLayerGreeter("first") }
        } operation: {
            LayerScreen()
        }
        let text = Injections.withOverrides {
            $0.register(\.layerGreeter) { MockLayerGreeter("second") }
        } operation: {
            screen.lazy.text
        }
        #expect(text == "first")
    }

    @Test func wrapperMadeOutsideAnyLayerResolvesWhereItIsFirstRead() {
        let outside = LayerScreen()
        Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            _ = LayerScreen().lazy
        }
        #expect(outside.lazy.text == "live")  // the layer opened and closed meanwhile
        let another = LayerScreen()
        let inside = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            another.lazy.text
        }
        #expect(inside == "mock")  // an XCTest case's stored property, read in its test's layer
    }

    @Test func aRegistrationMadeInTheLayerAfterTheWrapperReachesItsFirstRead() {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            let screen = LayerScreen()
            Injections.container.register(\.layerGreeter) { MockLayerGreeter("later") }
            return screen
        }
        #expect(screen.lazy.text == "later")
    }

    @Test func wrappersReadAfterTheirLayerEndedShareOneLayerAndItsCaches() async {
        final class Owner: @unchecked Sendable {
            // @unchecked: read by this test alone, and the wrappers are never reassigned.
            @LazyInjectable(\.cachedLayerScreen) var first
            @LazyInjectable(\.cachedLayerScreen) var second
        }
        weak var layer: OverrideRegistry?
        let owner = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            layer = Injections.currentOverrides?.registry
            return Owner()
        }
        // Read once the layer is surely gone (another test's change may hold it a moment).
        #expect(await Self.becomesNil { layer })
        #expect(owner.first === owner.second)
        #expect(owner.first.eager.text == "mock")
    }

    @Test func anObjectACachedInstanceMakesLaterDoesNotKeepTheLayerAlive() async {
        weak var coordinator: LayerCoordinator?
        Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            let made = Injections.container.resolve(\.cachedLayerCoordinator)
            made.open()
            coordinator = made
        }
        #expect(await Self.becomesNil { coordinator })
    }

    @Test func anObjectHandedToAnOverrideDoesNotKeepTheLayerAlive() async {
        weak var layer: OverrideRegistry?
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            let made = LayerScreen()
            Injections.container.register(\.cachedLayerScreen) { made }
            layer = Injections.currentOverrides?.registry
            return made
        }
        // The screen and the override that returns it keep each other until the screen's lazy
        // wrapper is first read (that read needs the override), but not the layer, whose caches
        // and common-path detour end with it.
        #expect(await Self.becomesNil { layer })
        _ = screen.lazy  // the first read lets the override go, so nothing is left behind
    }

    @Test func weakLazyWrapperReadAfterTheOperationReturnedResolvesInItsLayer() {
        final class Child {
            @WeakLazyInjectable(\.sharedLayerGreeter) var greeter
        }
        let held = LiveLayerGreeter()
        let child = Injections.withOverrides {
            $0.register(\.sharedLayerGreeter) { held }
        } operation: {
            Child()
        }
        #expect(child.greeter === held)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor @Test func injectableObjectMadeInsideALayerKeepsThatLayersDependencies() {
        @MainActor struct Screen {
            @InjectableObject(\.layerGreeterModel) var model
        }
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            Screen()
        }
        #expect(screen.model.greeter.text == "mock")
    }

    @Test func objectBuiltByALayersScopeResolvesLazilyInItsLayerAfterTheLayerEnded() {
        let screen = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            Injections.container.resolve(\.cachedLayerScreen)
        }
        #expect(screen.lazy.text == "mock")
    }

    @Test func objectBuiltByALayersScopeWithAnUnreadLazyWrapperDoesNotKeepTheLayerAlive() async {
        weak var screen: LayerScreen?
        Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            screen = Injections.container.resolve(\.cachedLayerScreen)
        }
        #expect(await Self.becomesNil { screen })
    }

    @Test func madeOverridesServeEveryRunAndShareTheirCaches() {
        let preview = Injections.makeOverrides { $0.register(\.layerGreeter, factory: Self.mock) }
        let first = Injections.withOverrides(preview) {
            Injections.container.resolve(\.cachedLayerScreen)
        }
        let second = Injections.withOverrides(preview) {
            Injections.container.resolve(\.cachedLayerScreen)
        }
        #expect(first === second)
        #expect(first.eager.text == "mock")
        #expect(Injections.container.resolve(\.cachedLayerScreen) !== first)
    }

    @Test func dispatchedWorkSeesTheLayerOnlyWhenItIsCarried() async {
        let (plain, carried) = await Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            let overrides = Injections.currentOverrides
            let plain = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(
                        returning: Injections.container.resolve(\.layerGreeter).text)
                }
            }
            let carried = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    Injections.withOverrides(overrides) {
                        continuation.resume(
                            returning: Injections.container.resolve(\.layerGreeter).text)
                    }
                }
            }
            return (plain, carried)
        }
        #expect(plain == "live")
        #expect(carried == "mock")
    }

    @Test func storedCallbackSeesTheLayerOnlyWhenItIsCarried() {
        var callbacks: [() -> String] = []
        Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            callbacks.append { Injections.container.resolve(\.layerGreeter).text }
            let overrides = Injections.currentOverrides
            callbacks.append {
                Injections.withOverrides(overrides) {
                    Injections.container.resolve(\.layerGreeter).text
                }
            }
        }
        #expect(callbacks.map { $0() } == ["live", "mock"])
    }

    @Test func unstructuredTaskStartedInsideInheritsTheLayer() async {
        let task = Injections.withOverrides {
            $0.register(\.layerGreeter, factory: Self.mock)
        } operation: {
            Task { Injections.container.resolve(\.layerGreeter).text }
        }
        #expect(await task.value == "mock")
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    @MainActor var layerGreeterModel: LayerGreeterModel {
        LayerGreeterModel(greeter: resolve(\.layerGreeter))
    }
}
