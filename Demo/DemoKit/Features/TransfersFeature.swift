import InjectableKit

/// The transfers feature's account actions: a module of its own in a larger app.
struct SendMoneyAction: AccountAction {
    let title = "Send money"
    let module = "Transfers"
}

struct StandingOrdersAction: AccountAction {
    let title = "Standing orders"
    let module = "Transfers"
}

extension Injections {
    /// The transfers feature's "Send money" action.
    public var sendMoneyAction: any AccountAction { cached(SendMoneyAction() as any AccountAction) }

    /// The transfers feature's "Standing orders" action.
    public var standingOrdersAction: any AccountAction {
        cached(StandingOrdersAction() as any AccountAction)
    }

    /// The transfers feature's contributions, made from the app's `AutoRegistering` hook.
    public static func contributeTransfersFeature() {
        container.contribute(\.sendMoneyAction, to: \.accountActions)
        container.contribute(\.standingOrdersAction, to: \.accountActions)
    }
}
