import InjectableKit
import TestSupport

/// An element of the test collections, told apart by name and identity.
protocol Sink: Sendable {
    var name: String { get }
}

final class NamedSink: Sink {
    let name: String
    init(_ name: String) { self.name = name }
}

/// Something built from a cached collection, to see that it is dropped with it.
final class SinkReport: Sendable {
    let names: [String]
    init(_ sinks: Contributions<any Sink>) { names = sinks.map(\.name) }
}

/// What the test module's hook does besides its usual contributions, set by an exit test
/// before the container's first use in its child process.
enum CollectionProbe {
    static let resolveBeforeContributing = TestAtomic<Bool>(false)
}

extension Injections {
    // Collections
    var sinks: Contributions<any Sink> { cached(contributions(to: \.sinks)) }
    var assembledSinks: Contributions<any Sink> { contributions(to: \.assembledSinks) }
    var sinksByName: KeyedContributions<String, any Sink> {
        cached(contributions(to: \.sinksByName))
    }
    var sinkReport: SinkReport { cached(SinkReport(resolve(\.sinks))) }
    var requiredSinks: Contributions<any Sink> {
        contributions(to: \.requiredSinks, minimumCount: 1)
    }
    var duplicatedSinks: Contributions<any Sink> { contributions(to: \.duplicatedSinks) }
    var clashingSinks: KeyedContributions<String, any Sink> { contributions(to: \.clashingSinks) }
    var lateSinks: Contributions<any Sink> { contributions(to: \.lateSinks) }
    /// The hook removes one of their contributions, as a test's layer does.
    var prunedSinks: Contributions<any Sink> { contributions(to: \.prunedSinks) }
    var prunedSinksByName: KeyedContributions<String, any Sink> {
        contributions(to: \.prunedSinksByName)
    }
    /// Names another collection's key: a copy-and-paste slip.
    var misnamedSinks: Contributions<any Sink> { cached(contributions(to: \.sinks)) }
    /// Kept longer than its unique element on purpose: that element shows whether the array
    /// itself was built again.
    var keptSinks: Contributions<any Sink> { cached(contributions(to: \.keptSinks)) }
    /// Changed only by the serialized global suite.
    var globalSinks: Contributions<any Sink> { cached(contributions(to: \.globalSinks)) }
    var globalSinkReport: SinkReport { cached(SinkReport(resolve(\.globalSinks))) }

    /// A cycle through an element: its element needs the collection.
    var cyclicSinks: Contributions<any Sink> { cached(contributions(to: \.cyclicSinks)) }

    // Elements
    var cyclicSink: any Sink { cached(NamedSink("cyclic \(resolve(\.cyclicSinks).count)")) }
    var consoleSink: any Sink { cached(NamedSink("console")) }
    var fileSink: any Sink { cached(NamedSink("file")) }
    var uniqueSink: any Sink { NamedSink("unique") }
    var recordingSink: any Sink { cached(NamedSink("recording")) }
    var globalSink: any Sink { cached(NamedSink("global")) }

    /// The test module's contributions, made from its `AutoRegistering` hook.
    static func contributeCollectionFixtures() {
        container.contribute(\.consoleSink, to: \.sinks)
        container.contribute(\.fileSink, to: \.sinks)

        container.contribute(\.consoleSink, to: \.assembledSinks)
        container.contribute(\.uniqueSink, to: \.assembledSinks)

        container.contribute(\.consoleSink, to: \.keptSinks)
        container.contribute(\.uniqueSink, to: \.keptSinks)

        container.contribute(\.globalSink, to: \.globalSinks)
        container.contribute(\.cyclicSink, to: \.cyclicSinks)

        container.contribute(\.consoleSink, to: \.sinksByName, forKey: "console")
        container.contribute(\.fileSink, to: \.sinksByName, forKey: "file")

        container.contribute(\.consoleSink, to: \.prunedSinks)
        container.contribute(\.fileSink, to: \.prunedSinks)
        container.removeContribution(\.consoleSink, from: \.prunedSinks)
        container.contribute(\.consoleSink, to: \.prunedSinksByName, forKey: "console")
        container.contribute(\.fileSink, to: \.prunedSinksByName, forKey: "file")
        container.removeContribution(forKey: "file", from: \.prunedSinksByName)

        // Mistakes, which only a resolution of their collection reports.
        container.contribute(\.consoleSink, to: \.duplicatedSinks)
        container.contribute(\.consoleSink, to: \.duplicatedSinks)
        container.contribute(\.consoleSink, to: \.clashingSinks, forKey: "sink")
        container.contribute(\.fileSink, to: \.clashingSinks, forKey: "sink")

        if CollectionProbe.resolveBeforeContributing.load(ordering: .relaxed) {
            _ = container.resolve(\.lateSinks)
            container.contribute(\.consoleSink, to: \.lateSinks)
        }
    }
}

extension Collection where Element == any Sink {
    var names: [String] { map(\.name) }
}

/// Whether two sinks are one instance.
func identical(_ first: any Sink, _ second: any Sink) -> Bool {
    (first as AnyObject) === (second as AnyObject)
}
