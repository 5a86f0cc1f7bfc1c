import InjectableKit

/// The statements feature's account action: a module of its own in a larger app.
struct DownloadStatementAction: AccountAction {
    let title = "Download statement"
    let module = "Statements"
}

extension Injections {
    /// The statements feature's "Download statement" action.
    public var downloadStatementAction: any AccountAction {
        cached(DownloadStatementAction() as any AccountAction)
    }

    /// The statements feature's contributions, made from the app's `AutoRegistering` hook.
    public static func contributeStatementsFeature() {
        container.contribute(\.downloadStatementAction, to: \.accountActions)
    }
}
