import InjectableKit
import Testing

/// A change of overrides reaches the caches of its own layer, and of the layers that consult
/// it, and nothing else: tests that run in their own layers never rebuild each other's
/// instances, nor the app's.
extension GlobalContainerTests {
    @Suite struct LayerInvalidationTests {
        @Test func overridingADependencyInALayerLeavesTheGlobalParentAlone() {
            let cached = Injections.container.resolve(\.layeredCachedParent)
            let application = Injections.container.resolve(\.layeredApplicationParent)
            Injections.withOverrides {
                $0.register(\.layeredDependency) { LayeredDependency("layer") }
            } operation: {
                #expect(Injections.container.resolve(\.layeredCachedParent).origin == "layer")
                #expect(Injections.container.resolve(\.layeredApplicationParent).origin == "layer")
                Injections.container.register(\.layeredDependency) { LayeredDependency("again") }
                Injections.container.reset(\.layeredDependency)
                Injections.container.reset()
            }
            #expect(Injections.container.resolve(\.layeredCachedParent) === cached)
            #expect(Injections.container.resolve(\.layeredApplicationParent) === application)
        }

        @Test func aLayersChangeLeavesAnotherLayersInstancesAlone() throws {
            let first = Injections.withOverrides { _ in
            } operation: {
                Injections.currentOverrides
            }
            let parent = Injections.withOverrides(first) {
                Injections.container.resolve(\.layeredCachedParent)
            }
            Injections.withOverrides { _ in
            } operation: {
                Injections.container.register(\.layeredDependency) { LayeredDependency("other") }
                #expect(Injections.container.resolve(\.layeredCachedParent).origin == "other")
            }
            Injections.withOverrides(first) {
                #expect(Injections.container.resolve(\.layeredCachedParent) === parent)
            }
        }

        @Test func aGlobalChangeLeavesWhatALayerBuiltFromItsOwnOverride() {
            defer { Injections.container.reset(\.layeredDependency) }
            let layer = Injections.withOverrides {
                $0.register(\.layeredDependency) { LayeredDependency("layer") }
            } operation: {
                Injections.currentOverrides
            }
            let parent = Injections.withOverrides(layer) {
                Injections.container.resolve(\.layeredCachedParent)
            }
            Injections.container.register(\.layeredDependency) { LayeredDependency("global") }
            Injections.withOverrides(layer) {
                #expect(Injections.container.resolve(\.layeredCachedParent) === parent)
                #expect(parent.origin == "layer")
            }
        }

        @Test func aGlobalTypeChangeLeavesWhatALayerBuiltFromItsOwnKeyOverride() {
            defer { Injections.container.reset(LayeredDependency.self) }
            let layer = Injections.withOverrides {
                // Cached by the override's own helper, for the key the layer overrides.
                $0.register(\.layeredDependency, scope: .cached) { LayeredDependency("layer") }
            } operation: {
                Injections.currentOverrides
            }
            let dependency = Injections.withOverrides(layer) {
                Injections.container.resolve(\.layeredDependency)
            }
            Injections.container.register { LayeredDependency("global") }
            Injections.withOverrides(layer) {
                #expect(Injections.container.resolve(\.layeredDependency) === dependency)
            }
        }

        @Test func aGlobalTypeChangeReachesAParentBuiltFromAnotherKeyOfThatTypeInALayer() {
            defer { Injections.container.reset(LayeredDependency.self) }
            // The layer overrides one key of the type; the parent also resolves another key of
            // it, which the global state serves.
            let layer = Injections.withOverrides {
                $0.register(\.layeredDependency) { LayeredDependency("layer") }
            } operation: {
                Injections.currentOverrides
            }
            let parent = Injections.withOverrides(layer) {
                Injections.container.resolve(\.layeredPairParent)
            }
            #expect(parent.origin == "live other + layer")
            Injections.container.register { LayeredDependency("global") }
            Injections.withOverrides(layer) {
                #expect(
                    Injections.container.resolve(\.layeredPairParent).origin == "global + layer")
            }
        }

        @Test func aGlobalChangeReachesWhatALayerBuiltFromTheGlobalState() {
            defer { Injections.container.reset(\.layeredDependency) }
            let layer = Injections.withOverrides { _ in
            } operation: {
                Injections.currentOverrides
            }
            let parent = Injections.withOverrides(layer) {
                Injections.container.resolve(\.layeredCachedParent)
            }
            #expect(parent.origin == "live")
            Injections.container.register(\.layeredDependency) { LayeredDependency("global") }
            Injections.withOverrides(layer) {
                #expect(Injections.container.resolve(\.layeredCachedParent).origin == "global")
            }
        }
    }
}

private final class LayeredDependency: Sendable {
    let origin: String
    init(_ origin: String) { self.origin = origin }
}

private final class LayeredParent: Sendable {
    let origin: String
    init(_ dependency: LayeredDependency) { origin = dependency.origin }
}

extension Injections {
    fileprivate var layeredDependency: LayeredDependency { LayeredDependency("live") }
    fileprivate var layeredCachedParent: LayeredParent {
        cached(LayeredParent(resolve(\.layeredDependency)))
    }
    fileprivate var layeredOtherDependency: LayeredDependency { LayeredDependency("live other") }
    fileprivate var layeredPairParent: LayeredParent {
        cached(
            LayeredParent(
                LayeredDependency(
                    resolve(\.layeredOtherDependency).origin + " + "
                        + resolve(\.layeredDependency).origin)))
    }
    fileprivate var layeredApplicationParent: LayeredParent {
        application(LayeredParent(resolve(\.layeredDependency)))
    }
}
