import InjectableKit

extension Tour {
    /// The demo's dependency graph as a Mermaid flowchart: what opening the accounts and profile
    /// screens and one account's detail resolves, recorded with
    /// `Injections.container.recordGraph()`.
    ///
    /// - Returns: Mermaid text (`graph TD`).
    public static func graph() -> String {
        Injections.container.recordGraph()
        _ = AccountsScreen().render() + ProfileScreen().render()
        _ = Injections.container.resolve(\.[account: 42])
        let graph = Injections.container.stopRecordingGraph()
        Injections.Scope.cached.reset()
        return graph.mermaid
    }
}
