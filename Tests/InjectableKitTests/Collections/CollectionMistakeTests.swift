import Foundation
import InjectableKit
import TestSupport
import Testing

/// Each mistake stops the process, so each case runs in a child process (an exit test).
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
