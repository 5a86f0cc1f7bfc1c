import InjectableKit
import InjectableTesting
import Testing

/// Each test changes collections in its own layer (the `.injections` trait, or
/// `withOverrides`), so the tests run in parallel with every other suite.
@Suite struct CollectionOverrideTests {
    @Test(.injections { $0.register(\.sinks) { [NamedSink("only")] } })
    func aTestReplacesTheWholeCollection() {
        #expect(Injections.container.resolve(\.sinks).names == ["only"])
    }

    @Test(.injections { $0.register(\.consoleSink) { NamedSink("mock console") } })
    func aTestReplacesOneElementByOverridingItsKey() {
        #expect(Injections.container.resolve(\.sinks).names == ["mock console", "file"])
    }

    @Test(.injections { $0.contribute(\.recordingSink, to: \.sinks) })
    func aTestAddsAnElementAfterThoseContributed() {
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file", "recording"])
    }

    @Test(.injections { $0.removeContribution(\.consoleSink, from: \.sinks) })
    func aTestRemovesAnElement() {
        #expect(Injections.container.resolve(\.sinks).names == ["file"])
    }

    @Test(
        .injections {
            $0.removeContribution(forKey: "console", from: \.sinksByName)
            $0.contribute(\.recordingSink, to: \.sinksByName, forKey: "console")
        })
    func aTestReplacesADictionaryEntry() {
        let sinks = Injections.container.resolve(\.sinksByName)
        #expect(sinks.elements.mapValues(\.name) == ["console": "recording", "file": "file"])
    }

    @Test func aLayersChangesStayInTheLayer() {
        let inside = Injections.withOverrides {
            $0.contribute(\.recordingSink, to: \.sinks)
        } operation: {
            Injections.container.resolve(\.sinks).names
        }
        #expect(inside == ["console", "file", "recording"])
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
    }

    @Test func aNestedLayerBuildsOnItsEnclosingLayersChanges() {
        let names = Injections.withOverrides {
            $0.contribute(\.recordingSink, to: \.sinks)
        } operation: {
            Injections.withOverrides {
                $0.removeContribution(\.consoleSink, from: \.sinks)
            } operation: {
                Injections.container.resolve(\.sinks).names
            }
        }
        #expect(names == ["file", "recording"])
    }

    @Test func aLayersAdditionFollowsTheEnclosingLayersWholeCollection() {
        let names = Injections.withOverrides {
            $0.register(\.sinks) { [NamedSink("only")] }
        } operation: {
            Injections.withOverrides {
                $0.contribute(\.recordingSink, to: \.sinks)
            } operation: {
                Injections.container.resolve(\.sinks).names
            }
        }
        #expect(names == ["only", "recording"])
    }

    @Test(.injections { _ in })
    func aChangedCollectionKeepsItsScopeInTheLayer() {
        Injections.container.contribute(\.recordingSink, to: \.keptSinks)  // in the test's layer
        let first = Injections.container.resolve(\.keptSinks)
        let second = Injections.container.resolve(\.keptSinks)
        #expect(first.names == ["console", "unique", "recording"])
        #expect(zip(first, second).allSatisfy(identical))
    }

    @Test(.injections { _ in })
    func aChangeAfterTheLayerResolvedTheCollectionReachesTheNextResolution() {
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
        Injections.container.contribute(\.recordingSink, to: \.sinks)
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file", "recording"])
    }

    @Test func parallelTestsEachSeeTheirOwnChanges() async {
        let results = await withTaskGroup(of: (Int, [String]).self) { group in
            for index in 0..<8 {
                group.addTask {
                    Injections.withOverrides {
                        if index.isMultiple(of: 2) {
                            $0.contribute(\.recordingSink, to: \.sinks)
                        } else {
                            $0.removeContribution(\.fileSink, from: \.sinks)
                        }
                    } operation: {
                        (index, Injections.container.resolve(\.sinks).names)
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for (index, names) in results {
            #expect(
                names == (index.isMultiple(of: 2) ? ["console", "file", "recording"] : ["console"]))
        }
    }
}

extension GlobalContainerTests {
    /// Whole-collection overrides made at the container, pushed and popped around each test.
    @Suite struct GlobalCollectionOverrideTests {
        @Test func aLayersAdditionFollowsTheContainersWholeCollection() {
            Injections.container.push()
            defer { Injections.container.pop() }
            Injections.container.register(\.globalSinks) { [NamedSink("mock")] }
            let names = Injections.withOverrides {
                $0.contribute(\.recordingSink, to: \.globalSinks)
            } operation: {
                Injections.container.resolve(\.globalSinks).names
            }
            #expect(names == ["mock", "recording"])
        }
    }
}
