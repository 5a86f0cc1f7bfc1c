// expect: cannot form key path to main actor-isolated property 'weatherClient'
// flags: -default-isolation MainActor
// In a main-actor-by-default module, a plain `extension Injections` is main-actor isolated:
// its keys cannot be resolved off the main actor. `nonisolated extension Injections` can.
import InjectableKit

nonisolated final class WeatherClient: Sendable {}

extension Injections {
    var weatherClient: WeatherClient { cached(WeatherClient()) }
}

nonisolated func refresh() -> WeatherClient {
    Injections.container.resolve(\.weatherClient)
}
