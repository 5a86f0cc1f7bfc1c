import InjectableKit
import Testing

extension GlobalContainerTests {
    @Suite struct ResolutionTests {
        @Test func resolveReturnsWhatTheRegistrationBuilds() {
            #expect(Injections.container.resolve(\.greeting).text == "live")
        }

        @Test func constructorInjectionSeesOverridesOfNestedDependencies() {
            Injections.container.register(\.greeting) { MockGreeting("nested") }
            defer { Injections.container.reset() }
            #expect(Injections.container.resolve(\.consumer).greeting.text == "nested")
        }

        @Test func argumentRegistrationCachesOneInstancePerArgumentValue() {
            Injections.Scope.cached.reset()
            let builds = Counters.argumentBuilds.count
            let first = Injections.container.resolve(\.[account: 1])
            let again = Injections.container.resolve(\.[account: 1])
            let other = Injections.container.resolve(\.[account: 2])
            #expect(first === again)
            #expect(first !== other)
            #expect(first.id == 1)
            #expect(other.id == 2)
            #expect(Counters.argumentBuilds.count == builds + 2)
        }

        @Test func argumentsKnownOnlyAtRunTimeFindTheirCachedInstance() {
            Injections.Scope.cached.reset()
            var instances: [Account] = []
            for id in [7, 8, 7, 8] {
                instances.append(Injections.container.resolve(\.[account: id]))
            }
            #expect(instances[0] === instances[2])
            #expect(instances[1] === instances[3])
            #expect(instances[0] !== instances[1])
        }

        @Test func resettingTheScopeRebuildsArgumentInstances() {
            let first = Injections.container.resolve(\.[account: 3])
            Injections.Scope.cached.reset()
            #expect(Injections.container.resolve(\.[account: 3]) !== first)
        }

        @Test func anArgumentInstanceIsCachedAgainAfterItsScopeIsReset() {
            _ = Injections.container.resolve(\.[account: 4])
            Injections.Scope.cached.reset()
            let rebuilt = Injections.container.resolve(\.[account: 4])
            #expect(Injections.container.resolve(\.[account: 4]) === rebuilt)
        }

        @Test func directMemberAccessSharesTheScopedInstance() {
            let resolved = Injections.container.resolve(\.cachedService)
            #expect(Injections.container.cachedService === resolved)
        }

        @Test func cachedInstanceBuiltWithADependencyKeepsIt() {
            Injections.Scope.cached.reset()
            let first = Injections.container.resolve(\.cachedConsumer)
            #expect(Injections.container.resolve(\.cachedConsumer) === first)
            #expect(first.greeting.text == "live")
        }
    }
}
