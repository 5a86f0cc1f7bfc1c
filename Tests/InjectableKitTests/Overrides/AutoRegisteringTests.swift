import DemoKit
import InjectableKit
import Testing

enum AutoRegistrationProbe {
    static let runs = Counter()
}

// `swift test` runs every test target in one process, which has one `AutoRegistering`
// conformance: this one, so it also makes the Demo's contributions, for DemoTests.
extension Injections: AutoRegistering {
    /// Registers the test module's module-level override, counting each run.
    public static func registerAllServices() {
        contributeDemoFeatures()
        AutoRegistrationProbe.runs.increment()
        container.register(\.autoRegisteredGreeting) { MockGreeting("auto") }
        contributeCollectionFixtures()
        contributeMainActorFixtures()
    }
}

extension Injections {
    var autoRegisteredGreeting: any Greeting { LiveGreeting() }
}

extension GlobalContainerTests {
    @Suite struct AutoRegisteringTests {
        @Test func autoRegistrationRunsBeforeTheFirstResolution() {
            #expect(Injections.container.resolve(\.autoRegisteredGreeting).text == "auto")
            #expect(AutoRegistrationProbe.runs.count >= 1)
        }

        @Test func resetRunsAutoRegistrationAgainBeforeTheNextUse() {
            _ = Injections.container.resolve(\.autoRegisteredGreeting)
            let runs = AutoRegistrationProbe.runs.count
            Injections.container.reset()
            #expect(Injections.container.resolve(\.autoRegisteredGreeting).text == "auto")
            #expect(AutoRegistrationProbe.runs.count == runs + 1)
            _ = Injections.container.resolve(\.autoRegisteredGreeting)
            #expect(AutoRegistrationProbe.runs.count == runs + 1)
        }

        @Test func autoRegistrationFirstRunInsideALayerStillRegistersGlobally() {
            let layer = Injections.makeOverrides { _ in }
            Injections.container.reset()
            let inside = Injections.withOverrides(layer) {
                Injections.container.resolve(\.autoRegisteredGreeting).text
            }
            #expect(inside == "auto")
            #expect(Injections.container.resolve(\.autoRegisteredGreeting).text == "auto")
        }
    }
}
