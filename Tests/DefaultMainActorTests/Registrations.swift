import InjectableKit
import Observation

// This module is built with `-default-isolation MainActor`: every declaration here without an
// isolation of its own is on the main actor, like an app target made by current Xcode.

/// A service any thread may use: `nonisolated` opts the type out of the module's default.
nonisolated final class WeatherClient: Sendable {
    let city: String
    init(city: String) { self.city = city }
}

/// A view model: main actor, by the module's default.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@Observable final class WeatherViewModel {
    let client: WeatherClient
    var forecast = "unknown"
    init(client: WeatherClient) { self.client = client }
}

/// Registrations any context may resolve: a `nonisolated` extension, so the getters (and their
/// keypaths) are not main-actor isolated.
nonisolated extension Injections {
    var weatherCity: String { "Lisbon" }
    var weatherClient: WeatherClient { cached(WeatherClient(city: resolve(\.weatherCity))) }
}

/// Registrations of main-actor types: the module's default applies, so these resolve from
/// main-actor code only, which the compiler checks.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    var weatherViewModel: WeatherViewModel {
        shared(WeatherViewModel(client: resolve(\.weatherClient)))
    }
}

/// A screen: main actor, by the module's default.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
final class WeatherScreen {
    @InjectableObject(\.weatherViewModel) var viewModel
}
