import InjectableKit
import Testing

extension Injections {
    var memoryCached: Service { cached(Service("memory cached")) }
    var memoryApplication: Service { application(Service("memory application")) }
    var memoryGraph: Service { graph(Service("memory graph")) }
    var memoryGraphPair: (Service, Service) { (resolve(\.memoryGraph), resolve(\.memoryGraph)) }
    var memorySession: Service { scoped(.testSession, Service("memory session")) }
}

/// Nothing the container holds keeps an instance alive past its scope: checked with weak
/// references after each way a scope lets go.
extension GlobalContainerTests {
    @Suite struct MemoryTests {
        @Test func registeringAnOverrideReleasesTheCachedLiveInstance() {
            weak var live: Service?
            live = Injections.container.resolve(\.memoryCached)
            #expect(live != nil)
            Injections.container.register(\.memoryCached) { Service("mock") }
            #expect(live == nil)
            Injections.container.reset()
        }

        @Test func resettingTheApplicationScopeReleasesItsInstances() {
            weak var instance: Service?
            instance = Injections.container.resolve(\.memoryApplication)
            Injections.Scope.resetAll()
            #expect(instance != nil)
            Injections.Scope.resetAll(includingApplication: true)
            #expect(instance == nil)
        }

        @Test func graphInstancesAreReleasedWhenTheirResolutionEnds() {
            weak var first: Service?
            do {
                let pair = Injections.container.resolve(\.memoryGraphPair)
                first = pair.0
                #expect(pair.0 === pair.1)
            }
            #expect(first == nil)
        }

        @Test func customScopeResetReleasesItsInstances() {
            weak var instance: Service?
            instance = Injections.container.resolve(\.memorySession)
            #expect(instance != nil)
            Injections.Scope.testSession.reset()
            #expect(instance == nil)
        }

        @Test func aScopedOverrideIsReleasedWhenItIsDropped() {
            weak var mock: Service?
            Injections.container.register(\.memoryCached) { Injections.cached(Service("mock")) }
            mock = Injections.container.resolve(\.memoryCached)
            #expect(mock?.name == "mock")
            Injections.container.reset(\.memoryCached)
            #expect(mock == nil)
        }
    }
}
