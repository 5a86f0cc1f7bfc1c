import InjectableKit
import Testing

/// Each test runs in its own `withOverrides` layer, so these run in parallel with other suites.
@Suite struct DefaultMainActorTests {
    @Test func aNonisolatedExtensionResolvesFromAnyTask() async {
        let city = await Injections.withOverrides { _ in
        } operation: {
            await Task.detached { Injections.container.resolve(\.weatherClient).city }.value
        }
        #expect(city == "Lisbon")
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func mainActorRegistrationsResolveOnTheMainActor() {
        Injections.withOverrides { _ in
        } operation: {
            let screen = WeatherScreen()
            #expect(screen.viewModel === Injections.container.resolve(\.weatherViewModel))
            #expect(screen.viewModel.client.city == "Lisbon")
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func overridesReachBothKindsOfRegistration() {
        Injections.withOverrides {
            $0.register(\.weatherCity) { "Porto" }
        } operation: {
            #expect(WeatherScreen().viewModel.client.city == "Porto")
        }
    }
}
