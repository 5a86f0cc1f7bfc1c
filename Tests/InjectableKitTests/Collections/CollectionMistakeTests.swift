import Foundation
import InjectableKit
import TestSupport
import Testing

/// Each mistake stops the process where no test is known to record it, as outside tests: each
/// such case runs in a child process (an exit test), whose body no test owns. A misplaced
/// contribution made in a test fails that test instead, and the run goes on.
@Suite struct CollectionMistakeTests {
    /// The message a child process printed before it stopped.
    private static func message(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func aContributionAfterTheCollectionsFirstResolutionStopsNamingBoth() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            CollectionProbe.resolveBeforeContributing.store(true, ordering: .relaxed)
            _ = Injections.container.resolve(\.sinks)  // runs the hook
        }
        let message = Self.message(result)
        #expect(message.contains("came after \\.lateSinks was first resolved"))
        #expect(message.contains("CollectionFixtures.swift:"))
        #expect(message.contains("registerAllServices()"))
    }

    @Test func aContributionOutsideTheHookInATestFailsItAtTheCallAndIsIgnored() {
        let line = #line + 2
        withKnownIssue {
            Injections.container.contribute(\.recordingSink, to: \.sinks)
        } matching: { issue in
            issue.sourceLocation?.fileID == "InjectableKitTests/CollectionMistakeTests.swift"
                && issue.sourceLocation?.line == line
                && issue.comments.contains {
                    $0.rawValue.contains("was made outside AutoRegistering's registerAllServices()")
                        && $0.rawValue.contains("CollectionMistakeTests.swift:")
                }
        }
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
    }

    @Test func aMainActorContributorOutsideTheHookInATestFailsItAtTheCallAndIsIgnored() {
        let line = #line + 2
        withKnownIssue {
            Injections.container.contributeOnMainActor {
                $0.contribute(\.recordingSink, to: \.sinks)
            }
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.comments.contains {
                    $0.rawValue.contains(
                        "contributeOnMainActor { ... } at InjectableKitTests/CollectionMistakeTests.swift:"
                    )
                        && $0.rawValue.contains("was made outside")
                }
        }
        #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
    }

    @Test func aContributionAfterSealingIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.seal()
            Injections.container.contribute(\.recordingSink, to: \.sinks)
        }
        let message = Self.message(result)
        #expect(message.contains("contribute("))
        #expect(message.contains("CollectionMistakeTests.swift:"))
        #expect(message.contains("refused: the container is sealed"))
    }

    @Test func aContributionOutsideTheHookAndAnyLayerStopsNamingTheHook() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.contribute(\.recordingSink, to: \.sinks)
        }
        let message = Self.message(result)
        #expect(message.contains("was made outside AutoRegistering's registerAllServices()"))
        #expect(message.contains("$0.contribute(...)"))
    }

    @Test func aRemovalOutsideTheHookAndAnyLayerStopsNamingTheHook() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.container.removeContribution(\.consoleSink, from: \.sinks)
        }
        let message = Self.message(result)
        #expect(message.contains("removeContribution("))
        #expect(message.contains("CollectionMistakeTests.swift:"))
        #expect(message.contains("was made outside AutoRegistering's registerAllServices()"))
    }

    @Test func theSameElementContributedTwiceStopsTheCollectionsResolution() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.duplicatedSinks)
        }
        let message = Self.message(result)
        #expect(message.contains("the same element is contributed to \\.duplicatedSinks twice"))
        #expect(message.contains("CollectionFixtures.swift:"))
    }

    @Test func twoElementsForOneDictionaryKeyStopTheCollectionsResolution() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.clashingSinks)
        }
        let message = Self.message(result)
        #expect(
            message.contains("two elements are contributed to \\.clashingSinks for the key sink"))
    }

    @Test func aCollectionWithFewerElementsThanItsMinimumStopsNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.requiredSinks)
        }
        let message = Self.message(result)
        #expect(message.contains("\\.requiredSinks needs at least 1 element, but none was"))
    }

    @Test func aCollectionGetterNamingAnotherCollectionsKeyStopsNamingBoth() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.sinks)  // learns the name `sinks`
            _ = Injections.container.resolve(\.misnamedSinks)
        }
        #expect(
            Self.message(result).contains(
                "\\.misnamedSinks's registration assembles the contributions to \\.sinks"))
    }

    @Test func aLayerAddingAnElementAlreadyInTheCollectionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.withOverrides {
                $0.contribute(\.consoleSink, to: \.sinks)
            } operation: {
            }
        }
        #expect(Self.message(result).contains("the same element is contributed to"))
    }

    @Test func aLayerRemovingAnElementNotInTheCollectionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            Injections.withOverrides {
                $0.removeContribution(\.recordingSink, from: \.sinks)
            } operation: {
            }
        }
        #expect(Self.message(result).contains("found nothing to remove"))
    }
}

extension GlobalContainerTests {
    /// Runs the test module's hook again (a global `reset()`), which a late contribution needs.
    @Suite struct LateContributionTests {
        @Test func aContributionAfterTheCollectionsFirstResolutionFailsTheTestAndIsIgnored() {
            CollectionProbe.resolveBeforeContributing.store(true, ordering: .relaxed)
            Injections.container.reset()  // the next resolution runs the hook again
            defer {
                CollectionProbe.resolveBeforeContributing.store(false, ordering: .relaxed)
                Injections.container.reset()
            }
            withKnownIssue {
                _ = Injections.container.resolve(\.sinks)  // runs the hook
            } matching: { issue in
                issue.comments.contains {
                    $0.rawValue.contains("came after \\.lateSinks was first resolved")
                        && $0.rawValue.contains("CollectionFixtures.swift:")
                }
            }
            #expect(Injections.container.resolve(\.lateSinks).isEmpty)
            #expect(Injections.container.resolve(\.sinks).names == ["console", "file"])
        }
    }
}
