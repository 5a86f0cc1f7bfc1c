import InjectableKit
import InjectableTesting
import Testing

/// Each test runs in its own layer (the `.injections` trait): fresh caches, its overrides its own.
@Suite(.injections { _ in }) struct CollectionTests {
    @Test func anArrayCollectionListsEveryContributionInTheOrderMade() {
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
    }

    @Test func aDictionaryCollectionFilesEachElementUnderItsKey() {
        let sinks = Injections.container.resolve(\.sinksByName)
        #expect(sinks.elements.mapValues(\.name) == ["console": "console", "file": "file"])
    }

    @Test func theHookRemovesAContributionAsATestsLayerDoes() {
        #expect(Injections.container.resolve(\.prunedSinks).names == ["file"])
        let byName = Injections.container.resolve(\.prunedSinksByName)
        #expect(byName.elements.mapValues(\.name) == ["console": "console"])
    }

    @Test func eachElementKeepsItsOwnScope() {
        let first = Injections.container.resolve(\.assembledSinks)
        let second = Injections.container.resolve(\.assembledSinks)
        #expect(first.names == ["console", "unique"])
        #expect(identical(first[0], second[0]))  // cached element
        #expect(!identical(first[1], second[1]))  // unique element
        // The cached element is the one its own key resolves to.
        let console = Injections.container.resolve(\.consoleSink)
        #expect(identical(first[0], console))
    }

    @Test func aCachedCollectionIsBuiltOnce() {
        let first = Injections.container.resolve(\.keptSinks)
        let second = Injections.container.resolve(\.keptSinks)
        #expect(first.names == ["console", "unique"])
        #expect(first === second)
    }

    @Test func elementsResolveThroughTheContainerSoOverridesApply() {
        Injections.container.register(\.fileSink) { NamedSink("mock file") }
        #expect(Injections.container.resolve(\.sinks).names == ["console", "mock file"])
    }
}

/// Each test runs in its own layer (the `.injections` trait).
@Suite(.injections { _ in }) struct CollectionConcurrencyTests {
    @Test func aCachedCollectionIsBuiltOnceAndSharedByEveryThread() async {
        let collections = await withTaskGroup(of: Contributions<any Sink>.self) { group in
            for _ in 0..<16 {
                group.addTask { Injections.container.resolve(\.keptSinks) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let first = collections[0]
        #expect(collections.allSatisfy { zip($0, first).allSatisfy(identical) })
    }
}
