import InjectableKit
import InjectableTesting
import Testing

/// A cached collection reads its elements through the container, so a change of an element's
/// key drops it, and what was built from it, like any dependency. Each test runs in its own
/// layer (the `.injections` trait).
@Suite(.injections { _ in }) struct CollectionInvalidationTests {
    @Test func overridingAnElementsKeyRebuildsTheCachedCollection() {
        let live = Injections.container.resolve(\.keptSinks)
        Injections.container.register(\.consoleSink) { NamedSink("mock") }
        let mocked = Injections.container.resolve(\.keptSinks)
        #expect(mocked.names == ["mock", "unique"])
        #expect(!identical(live[1], mocked[1]))  // the array was built again
    }

    @Test func resettingAnElementsKeyRebuildsTheCachedCollection() {
        Injections.container.register(\.consoleSink) { NamedSink("mock") }
        #expect(Injections.container.resolve(\.sinks).names == ["mock", "file"])
        Injections.container.reset(\.consoleSink)
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
    }

    @Test func whatWasBuiltFromACachedCollectionIsDroppedWithIt() {
        #expect(Injections.container.resolve(\.sinkReport).names == ["console", "file"])
        Injections.container.register(\.fileSink) { NamedSink("mock") }
        #expect(Injections.container.resolve(\.sinkReport).names == ["console", "mock"])
    }

    @Test func addingAnElementInTheLayerRebuildsWhatWasBuiltFromTheCollection() {
        #expect(Injections.container.resolve(\.sinkReport).names == ["console", "file"])
        Injections.container.contribute(\.recordingSink, to: \.sinks)
        #expect(
            Injections.container.resolve(\.sinkReport).names == ["console", "file", "recording"])
    }
}

extension GlobalContainerTests {
    /// The global overrides and caches: a global change reaches collections cached globally.
    @Suite struct GlobalCollectionInvalidationTests {
        @Test func aGlobalOverrideOfAnElementRebuildsTheGloballyCachedCollection() {
            #expect(Injections.container.resolve(\.globalSinkReport).names == ["global"])
            Injections.container.register(\.globalSink) { NamedSink("mock") }
            #expect(Injections.container.resolve(\.globalSinks).names == ["mock"])
            #expect(Injections.container.resolve(\.globalSinkReport).names == ["mock"])
            Injections.container.reset(\.globalSink)
            #expect(Injections.container.resolve(\.globalSinkReport).names == ["global"])
        }

        @Test func aGlobalResetKeepsEveryContribution() {
            #expect(Injections.container.resolve(\.globalSinks).names == ["global"])
            Injections.container.reset()  // the hook runs again before the next use
            Injections.Scope.cached.reset()
            #expect(Injections.container.resolve(\.globalSinks).names == ["global"])
            #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
        }
    }
}
