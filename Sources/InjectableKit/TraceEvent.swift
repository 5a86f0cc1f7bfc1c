extension Injections {
    /// One event of the resolution trace (see ``Injections/trace(_:)``): a finished resolution,
    /// or the dependency cycle that is about to stop the process.
    ///
    /// ```swift
    /// Injections.container.trace { event in
    ///     if case .resolved(let key, _, built: true, _, _) = event { print("built \(key)") }
    /// }
    /// ```
    public enum TraceEvent: Sendable, Hashable, CustomStringConvertible {
        /// A finished resolution of `key` (as `\.name`; `\.<Type>` where its name is not
        /// known), served from `scope` (`unique` when the registration uses no scope helper).
        /// `built` says whether it built a new instance rather than reusing a cached one,
        /// `overridden` whether an override, not the key's own registration, served it, and
        /// `depth` how deep it is nested: 0 for one the program asked for, 1 for a key its
        /// registration resolved, and so on.
        case resolved(key: String, scope: String, built: Bool, overridden: Bool, depth: Int)
        /// A dependency cycle, which then stops the process: the chain of keys, first key last
        /// too (`[\.a, \.b, \.a]`).
        case cycle([String])

        /// A readable line: indented by depth, for example `  \.api (cached) reused`, or
        /// `cycle: \.a -> \.b -> \.a`.
        public var description: String {
            switch self {
            case .cycle(let chain):
                return "cycle: " + chain.joined(separator: " -> ")
            case .resolved(let key, let scope, let built, let overridden, let depth):
                return String(repeating: "  ", count: depth) + "\(key) (\(scope)) "
                    + (built ? "built" : "reused") + (overridden ? ", override" : "")
            }
        }
    }

    /// Starts the resolution trace: every resolution, once it finishes, is reported to `log`,
    /// innermost first (a key's dependencies before the key). `nil` stops it.
    ///
    /// ```swift
    /// Injections.container.trace()                  // prints each resolution
    /// Injections.container.trace { logger.debug("\($0)") }
    /// Injections.container.trace(nil)               // stops
    /// ```
    ///
    /// Off by default, and free while off: the fast path of resolution does not look at it.
    /// While on, resolutions take the framed path that records them.
    ///
    /// Started inside a layer (``Injections/withOverrides(_:operation:)-((Injections)->Void,_)``, a test's
    /// `.injections` trait), the trace reports that layer's resolutions only, those of layers
    /// nested in it included, so that tests running at the same time stay out of each other's
    /// traces; stop it in the same layer. Started outside any layer, it reports every
    /// resolution.
    ///
    /// - Parameter log: Receives each resolution; by default, prints it. `nil` stops the trace
    ///   started in the same layer (or outside any layer).
    public func trace(_ log: (@Sendable (TraceEvent) -> Void)? = { print($0) }) {
        Diagnostics.update(Layers.current?.serial) { $0.tracer = log }
    }

    /// Starts recording which key resolved which, to export as a graph with
    /// ``stopRecordingGraph()``.
    ///
    /// ```swift
    /// Injections.container.recordGraph()
    /// _ = Injections.container.resolve(\.accountsViewModel)
    /// print(Injections.container.stopRecordingGraph().mermaid)
    /// ```
    ///
    /// Like ``trace(_:)``, a recording started inside a layer records that layer's resolutions
    /// only, and one started outside any layer records every resolution.
    public func recordGraph() {
        Diagnostics.update(Layers.current?.serial) { $0.recorder = GraphRecorder() }
    }

    /// Stops the recording started in the same layer (or outside any layer) and returns what
    /// was recorded.
    ///
    /// - Returns: The keys resolved while recording, and which resolved which.
    @discardableResult
    public func stopRecordingGraph() -> DependencyGraph {
        Diagnostics.update(Layers.current?.serial) { $0.recorder = nil }.recorder?.graph
            ?? DependencyGraph(nodes: [], edges: [])
    }
}
