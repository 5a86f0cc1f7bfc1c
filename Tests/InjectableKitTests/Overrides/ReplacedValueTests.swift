import Foundation
import InjectableKit
import Testing

struct WeatherClient: Sendable {
    var forecast: @Sendable () -> String
    var city: String
}

extension Injections {
    fileprivate var weather: WeatherClient { WeatherClient(forecast: { "sun" }, city: "Lyon") }
    fileprivate var decoratedService: Service { cached(Service("live")) }
    fileprivate var replacedCycleStart: Service { Service("start") }
    fileprivate var replacedCycleNext: Service { resolve(\.replacedCycleStart) }
}

/// An override whose factory resolves its own key builds on the value it replaces: the
/// override beneath it, or the key's own getter. These tests use their own layers, over keys
/// no other test overrides.
@Suite struct ReplacedValueTests {
    @Test func anOverrideResolvingItsOwnKeyChangesOnePropertyOfTheLiveValue() {
        Injections.withOverrides {
            $0.register(\.weather) {
                var weather = Injections.container.resolve(\.weather)
                weather.forecast = { "rain" }
                return weather
            }
        } operation: {
            let weather = Injections.container.resolve(\.weather)
            #expect(weather.forecast() == "rain")
            #expect(weather.city == "Lyon")
        }
    }

    @Test func anInnerLayersOverrideBuildsOnTheEnclosingLayersOverride() {
        Injections.withOverrides {
            $0.register(\.weather) {
                var weather = Injections.container.resolve(\.weather)
                weather.city = "Oslo"
                return weather
            }
        } operation: {
            Injections.withOverrides {
                $0.register(\.weather) {
                    var weather = Injections.container.resolve(\.weather)
                    let below = weather.forecast
                    weather.forecast = { below() + " then rain" }
                    return weather
                }
            } operation: {
                let weather = Injections.container.resolve(\.weather)
                #expect(weather.forecast() == "sun then rain")
                #expect(weather.city == "Oslo")
            }
        }
    }

    @Test func aKeyOverrideBuildsOnItsOwnLayersTypeOverride() {
        Injections.withOverrides {
            $0.register(as: WeatherClient.self) { WeatherClient(forecast: { "fog" }, city: "Oslo") }
            $0.register(\.weather) {
                var weather = Injections.container.resolve(\.weather)
                weather.forecast = { "rain" }
                return weather
            }
        } operation: {
            let weather = Injections.container.resolve(\.weather)
            #expect(weather.forecast() == "rain")
            #expect(weather.city == "Oslo")
        }
    }

    @Test func aDecoratingOverrideOfACachedKeyIsCachedWithIt() {
        let decorated = Counter()
        Injections.withOverrides {
            $0.register(\.decoratedService) {
                let service = Injections.container.resolve(\.decoratedService)
                decorated.increment()
                return service
            }
        } operation: {
            let first = Injections.container.resolve(\.decoratedService)
            let second = Injections.container.resolve(\.decoratedService)
            #expect(first === second)
            #expect(first.name == "live")
            #expect(decorated.count == 1)
        }
    }

    @Test func anOverrideReachingItsKeyThroughAnotherKeyIsStillACycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.withOverrides {
                $0.register(\.replacedCycleStart) {
                    Injections.container.resolve(\.replacedCycleNext)
                }
            } operation: {
                _ = Injections.container.resolve(\.replacedCycleStart)
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("dependency cycle"))
    }
}

extension GlobalContainerTests {
    /// Global overrides, pushed and popped around each test.
    @Suite struct GlobalReplacedValueTests {
        @Test func aGlobalOverrideBuildsOnTheGetterAndALayersOnTheGlobalOne() {
            Injections.container.push()
            defer { Injections.container.pop() }
            Injections.container.register(\.weather) {
                var weather = Injections.container.resolve(\.weather)
                weather.city = "Oslo"
                return weather
            }
            #expect(Injections.container.resolve(\.weather).city == "Oslo")
            #expect(Injections.container.resolve(\.weather).forecast() == "sun")
            Injections.withOverrides {
                $0.register(\.weather) {
                    var weather = Injections.container.resolve(\.weather)
                    weather.forecast = { "snow" }
                    return weather
                }
            } operation: {
                let weather = Injections.container.resolve(\.weather)
                #expect(weather.city == "Oslo")
                #expect(weather.forecast() == "snow")
            }
        }

        @Test func aGlobalKeyOverrideBuildsOnTheTypeOverrideInEffect() {
            Injections.container.push()
            defer { Injections.container.pop() }
            Injections.container.register { WeatherClient(forecast: { "fog" }, city: "Oslo") }
            Injections.container.register(\.weather) {
                var weather = Injections.container.resolve(\.weather)
                weather.forecast = { "rain" }
                return weather
            }
            #expect(Injections.container.resolve(\.weather).city == "Oslo")
            #expect(Injections.container.resolve(\.weather).forecast() == "rain")
            // Inside a layer, without the global key override the layer's type override wins.
            Injections.withOverrides {
                $0.register(as: WeatherClient.self) {
                    WeatherClient(forecast: { "snow" }, city: "Bergen")
                }
            } operation: {
                let weather = Injections.container.resolve(\.weather)
                #expect(weather.city == "Bergen")
                #expect(weather.forecast() == "rain")
            }
        }
    }
}
