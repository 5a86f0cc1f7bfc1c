import InjectableKit

extension Tour {
    /// A text format for the demo's dependency graph.
    public enum GraphFormat: String, Sendable {
        /// A Mermaid flowchart (`graph TD`), for Markdown that renders Mermaid.
        case mermaid
        /// Graphviz (`digraph`), for `dot -Tsvg`.
        case dot
    }

    /// The demo's dependency graph: what opening the accounts and profile screens and one
    /// account's detail resolves, recorded with `Injections.container.recordGraph()`, under a
    /// comment line that says so; with `everyKey`, every key too.
    ///
    /// - Parameters:
    ///   - format: Mermaid or Graphviz.
    ///   - everyKey: Resolves every key the demo declares while recording (the demo's
    ///     `Injections.verifyAll()`, which the InjectionKeys plugin writes), or `nil`.
    /// - Returns: The graph's text.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    public static func graph(
        _ format: GraphFormat = .mermaid, everyKey: (() -> Void)? = nil
    ) -> String {
        Injections.container.recordGraph()
        _ = AccountsScreen().render() + ProfileScreen().render()
        _ = Injections.container.resolve(\.[account: 42])
        everyKey?()
        let graph = Injections.container.stopRecordingGraph()
        Injections.Scope.cached.reset()
        let about =
            "InjectableKit demo: the dependency graph of the accounts and profile screens and "
            + "account 42's detail"
            + (everyKey == nil ? "" : ", and of every key the demo declares")
            + ", recorded with Injections.container.recordGraph()"
        switch format {
        case .mermaid: return "%% \(about)\n" + graph.mermaid
        case .dot: return "// \(about)\n" + graph.dot
        }
    }
}
