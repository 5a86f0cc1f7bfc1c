import DemoKit
import InjectableKit
import Testing

/// Each test changes the collection in its own `withOverrides` layer, so these run in parallel
/// with the tour's suite, which uses the global container in child processes.
@Suite struct AccountActionsTests {
    @Test func theAccountScreensActionsComeFromEveryFeatureModuleInTheHooksOrder() {
        let modules = Injections.withOverrides { _ in
        } operation: {
            Injections.container.resolve(\.accountActions).map(\.module)
        }
        #expect(modules == ["Transfers", "Transfers", "Statements"])
    }

    @Test func aTestReplacesOneActionByOverridingItsKey() {
        let titles = Injections.withOverrides {
            $0.register(\.downloadStatementAction) { ScriptedAction("Statement (stub)") }
        } operation: {
            Injections.container.resolve(\.accountActions).map(\.title)
        }
        #expect(titles == ["Send money", "Standing orders", "Statement (stub)"])
    }

    @Test func aTestRemovesOneFeaturesActionInItsLayer() {
        let titles = Injections.withOverrides {
            $0.removeContribution(\.standingOrdersAction, from: \.accountActions)
        } operation: {
            Injections.container.resolve(\.accountActions).map(\.title)
        }
        #expect(titles == ["Send money", "Download statement"])
    }
}
