extension Injections {
    /// The keys resolved while recording, with their scopes, and which resolved which; text for
    /// Mermaid and Graphviz.
    ///
    /// ```swift
    /// let graph = Injections.container.stopRecordingGraph()
    /// print(graph.mermaid)
    /// let api = graph.nodes.first { $0.key == #"\.api"# }   // "\.api (cached)"
    /// ```
    public struct DependencyGraph: Sendable, Hashable {
        /// One key, and the keys its registration resolved.
        public struct Node: Sendable, Hashable, CustomStringConvertible {
            /// The key, as `\.name`.
            public let key: String
            /// The keys its registration resolved, as `\.name`, in the order first seen.
            public internal(set) var dependencies: [String] = []
            let scope: String
            let overridden: Bool

            /// The key, its scope (`unique` without a scope helper), and whether an override
            /// served it: `\.api (cached)`, `\.clock (unique, override)`.
            public var description: String {
                "\(key) (\(scope)\(overridden ? ", override" : ""))"
            }
        }

        /// One dependency: the registration of `from` resolved `to`.
        struct Edge: Sendable, Hashable {
            let from: String
            let to: String
        }

        /// The keys, in the order they were first resolved.
        public let nodes: [Node]
        /// The dependencies, in the order they were first seen.
        let edges: [Edge]

        init(nodes: [Node], edges: [Edge]) {
            let dependencies = Dictionary(grouping: edges, by: \.from)
            self.nodes = nodes.map { node in
                var node = node
                node.dependencies = dependencies[node.key, default: []].map(\.to)
                return node
            }
            self.edges = edges
        }

        /// The graph as a Mermaid flowchart (`graph TD`).
        public var mermaid: String {
            (["graph TD"] + nodes.map { "    \(identifier($0.key))[\"\($0)\"]" }
                + edges.map { "    \(identifier($0.from)) --> \(identifier($0.to))" })
                .joined(separator: "\n")
        }

        /// The graph as Graphviz DOT.
        public var dot: String {
            (["digraph Injections {"]
                + nodes.map { "    \(quoted($0.key)) [label=\(quoted($0.description))];" }
                + edges.map { "    \(quoted($0.from)) -> \(quoted($0.to));" } + ["}"])
                .joined(separator: "\n")
        }

        /// A Mermaid node identifier: the key's letters and digits, the rest as `_`.
        private func identifier(_ key: String) -> String {
            String(key.dropFirst(2).map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }

        private func quoted(_ text: String) -> String {
            "\"" + String(text.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] }) + "\""
        }
    }
}
