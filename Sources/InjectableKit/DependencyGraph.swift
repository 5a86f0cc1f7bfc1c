extension Injections {
    /// The keys resolved while recording, with their scopes, and which resolved which; text for
    /// Mermaid and Graphviz.
    public struct DependencyGraph: Sendable, Hashable {
        /// One key.
        public struct Node: Sendable, Hashable {
            /// The key, as `\.name`.
            public let key: String
            /// Its scope, `unique` without a scope helper.
            public let scope: String
            /// Whether an override served it.
            public let overridden: Bool
        }

        /// One dependency: the registration of `from` resolved `to`.
        public struct Edge: Sendable, Hashable {
            /// The key whose registration resolved the other.
            public let from: String
            /// The key it resolved.
            public let to: String
        }

        /// The keys, in the order they were first resolved.
        public let nodes: [Node]
        /// The dependencies, in the order they were first seen.
        public let edges: [Edge]

        /// The graph as a Mermaid flowchart (`graph TD`).
        public var mermaid: String {
            var lines = ["graph TD"]
            for node in nodes {
                lines.append("    \(identifier(node.key))[\"\(label(node))\"]")
            }
            for edge in edges {
                lines.append("    \(identifier(edge.from)) --> \(identifier(edge.to))")
            }
            return lines.joined(separator: "\n")
        }

        /// The graph as Graphviz DOT.
        public var dot: String {
            var lines = ["digraph Injections {"]
            for node in nodes {
                lines.append("    \(quoted(node.key)) [label=\(quoted(label(node)))];")
            }
            for edge in edges {
                lines.append("    \(quoted(edge.from)) -> \(quoted(edge.to));")
            }
            lines.append("}")
            return lines.joined(separator: "\n")
        }

        private func label(_ node: Node) -> String {
            "\(node.key) (\(node.scope)\(node.overridden ? ", override" : ""))"
        }

        /// A Mermaid node identifier: the key's letters and digits, the rest as `_`.
        private func identifier(_ key: String) -> String {
            String(key.dropFirst(2).map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }

        private func quoted(_ text: String) -> String {
            var escaped = "\""
            for character in text {
                if character == "\\" || character == "\"" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped + "\""
        }
    }
}
