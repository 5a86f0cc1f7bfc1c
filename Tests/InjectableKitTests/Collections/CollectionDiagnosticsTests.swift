import Foundation
import InjectableKit
import TestSupport
import Testing

/// The trace and graph recorded in a layer see that layer's resolutions only, and `verify`
/// resolves each key in a fresh layer, so these run in parallel with every other suite.
@Suite struct CollectionDiagnosticsTests {
    @Test func theGraphShowsTheCollectionAndAnEdgeToEachElement() {
        let graph = Injections.withOverrides { _ in
        } operation: {
            Injections.container.recordGraph()
            _ = Injections.container.resolve(\.sinks)
            return Injections.container.stopRecordingGraph()
        }
        #expect(
            graph.nodes.map(\.description) == [
                "\\.consoleSink (cached)", "\\.fileSink (cached)", "\\.sinks (cached)",
            ])
        #expect(
            graph.nodes.flatMap { node in node.dependencies.map { "\(node.key) -> \($0)" } } == [
                "\\.sinks -> \\.consoleSink", "\\.sinks -> \\.fileSink",
            ])
    }

    @Test func theTraceShowsEachElementResolvedInsideTheCollection() {
        let events = Guarded<[String]>([])
        Injections.withOverrides { _ in
        } operation: {
            Injections.container.trace { event in
                guard case .resolved(let key, _, _, _, let depth) = event else { return }
                events.withLock { $0.append("\(key) \(depth)") }
            }
            _ = Injections.container.resolve(\.sinks)
            Injections.container.trace(nil)
        }
        #expect(events.withLock { $0 } == ["\\.consoleSink 1", "\\.fileSink 1", "\\.sinks 0"])
    }

    @Test func verifyReportsAnEmptyCollectionThatNeedsAnElement() {
        let report = Injections.verify { $0.resolve(\.requiredSinks) }
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.kind == .stopped)
        #expect(
            report.problems.first?.description.contains("\\.requiredSinks needs at least 1 element")
                == true)
    }

    @Test func verifyReportsAnElementContributedTwiceAndADictionaryKeyUsedTwice() {
        let report = Injections.verify {
            $0.resolve(\.duplicatedSinks)
            $0.resolve(\.clashingSinks)
        }
        #expect(report.problems.map(\.kind) == [.stopped, .stopped])
        #expect(report.problems.first?.description.contains("the same element") == true)
        #expect(report.problems.last?.description.contains("for the key sink") == true)
    }

    @Test func aCycleThroughAnElementIsNamedLikeAnyOther() {
        let report = Injections.verify { $0.resolve(\.cyclicSinks) }
        #expect(report.problems.first?.kind == .cycle)
        #expect(
            report.problems.first?.description.contains(
                "\\.cyclicSinks -> \\.cyclicSink -> \\.cyclicSinks") == true,
            "\(report)")
    }
}

extension CollectionDiagnosticsTests {
    @Test func verifyReportsACachedCollectionHoldingAUniqueElement() {
        let report = Injections.verify { $0.resolve(\.keptSinks) }
        #expect(report.problems.map(\.kind) == [.scopeMismatch], "\(report)")
    }
}
