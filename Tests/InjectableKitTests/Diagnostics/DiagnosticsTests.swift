import InjectableKit
import Testing

final class DiagnosticsAPI: Sendable {}

final class DiagnosticsStore: Sendable {
    let api: DiagnosticsAPI
    init(api: DiagnosticsAPI) { self.api = api }
}

final class DiagnosticsScreen: Sendable {
    let store: DiagnosticsStore
    let api: DiagnosticsAPI
    init(store: DiagnosticsStore, api: DiagnosticsAPI) {
        self.store = store
        self.api = api
    }
}

extension Injections {
    var diagnosticsAPI: DiagnosticsAPI { cached(DiagnosticsAPI()) }
    var diagnosticsStore: DiagnosticsStore { DiagnosticsStore(api: resolve(\.diagnosticsAPI)) }
    var diagnosticsScreen: DiagnosticsScreen {
        shared(
            DiagnosticsScreen(
                store: resolve(\.diagnosticsStore), api: resolve(\.diagnosticsAPI)))
    }
}

/// The trace and the graph are process-wide, and other suites resolve in parallel, so each
/// case runs in a child process (an exit test) and prints what the parent checks.
@Suite struct DiagnosticsTests {
    @Test func theGraphOfASmallRegistrationTreeExportsAsMermaid() async throws {
        let result = try await #require(
            processExitsWith: .success, observing: [\.standardOutputContent]
        ) {
            Injections.container.recordGraph()
            _ = Injections.container.resolve(\.diagnosticsScreen)
            print(Injections.container.stopRecordingGraph().mermaid)
        }
        #expect(
            text(of: result) == #"""
                graph TD
                    diagnosticsAPI["\.diagnosticsAPI (cached)"]
                    diagnosticsStore["\.diagnosticsStore (unique)"]
                    diagnosticsScreen["\.diagnosticsScreen (shared)"]
                    diagnosticsStore --> diagnosticsAPI
                    diagnosticsScreen --> diagnosticsStore
                    diagnosticsScreen --> diagnosticsAPI
                """#)
    }

    /// An override keeps its key's scope, whose helper names the key.
    @Test func theGraphExportsAsGraphvizDOTWithOverridesMarked() async throws {
        let result = try await #require(
            processExitsWith: .success, observing: [\.standardOutputContent]
        ) {
            Injections.container.register(\.diagnosticsAPI) { DiagnosticsAPI() }
            Injections.container.recordGraph()
            _ = Injections.container.resolve(\.diagnosticsStore)
            print(Injections.container.stopRecordingGraph().dot)
        }
        #expect(
            text(of: result) == #"""
                digraph Injections {
                    "\\.diagnosticsAPI" [label="\\.diagnosticsAPI (cached, override)"];
                    "\\.diagnosticsStore" [label="\\.diagnosticsStore (unique)"];
                    "\\.diagnosticsStore" -> "\\.diagnosticsAPI";
                }
                """#)
    }

    @Test func theTraceReportsEachResolutionWithItsScopeDepthAndReuse() async throws {
        let result = try await #require(
            processExitsWith: .success, observing: [\.standardOutputContent]
        ) {
            Injections.container.trace()
            _ = Injections.container.resolve(\.diagnosticsScreen)
            Injections.container.trace(nil)
            _ = Injections.container.resolve(\.diagnosticsStore)  // not traced any more
        }
        #expect(
            text(of: result) == #"""
                    \.diagnosticsAPI (cached) built
                  \.diagnosticsStore (unique) built
                  \.diagnosticsAPI (cached) reused
                \.diagnosticsScreen (shared) built
                """#)
    }
}

/// What an exit test's child process printed, without the last line break.
private func text(of result: ExitTest.Result) -> String {
    var output = String(decoding: result.standardOutputContent, as: UTF8.self)
    if output.hasSuffix("\n") { output.removeLast() }
    return output
}
