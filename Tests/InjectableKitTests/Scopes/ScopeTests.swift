import InjectableTesting
import Testing

@testable import InjectableKit

extension GlobalContainerTests {
    @Suite struct ScopeTests {
        @Test func uniqueRegistrationBuildsANewInstanceEveryTime() {
            let first = Injections.container.resolve(\.uniqueService)
            let second = Injections.container.resolve(\.uniqueService)
            #expect(first !== second)
        }

        @Test func sharedInstanceIsReusedWhileHeld() {
            let held = Injections.container.resolve(\.sharedService)
            #expect(Injections.container.resolve(\.sharedService) === held)
        }

        @Test func sharedInstanceIsReleasedWithItsLastHolder() {
            weak var released: Service?
            do {
                let held = Injections.container.resolve(\.sharedService)
                released = held
                #expect(released != nil)
            }
            #expect(released == nil)
            let next = Injections.container.resolve(\.sharedService)
            #expect(next.name == "shared")
        }

        @Test func sharedInstanceIsFoundInsideAnOptionalInsideAnExistential() {
            let first = Injections.container.resolve(\.sharedOptionalInAny)
            let again = Injections.container.resolve(\.sharedOptionalInAny)
            #expect((first as? Service)?.name == "optional in any")
            #expect(again as? Service === first as? Service)
        }

        @Test func sharedInstanceIsFoundInsideOptionalsAndExistentials() {
            let optional = Injections.container.resolve(\.sharedOptionalService)
            let any = Injections.container.resolve(\.sharedAnyService)
            let greeting = Injections.container.resolve(\.sharedGreetingExistential)
            #expect(Injections.container.resolve(\.sharedOptionalService) === optional)
            #expect(
                Injections.container.resolve(\.sharedAnyService) as AnyObject === any as AnyObject)
            #expect(
                Injections.container.resolve(\.sharedGreetingExistential) as AnyObject
                    === greeting as AnyObject)
            // A struct inside an existential cannot be held weakly: built anew each time.
            let first = Injections.container.resolve(\.sharedValueExistential)
            let second = Injections.container.resolve(\.sharedValueExistential)
            #expect(first as? ValueService != nil)
            #expect((first as? ValueService)?.serial != (second as? ValueService)?.serial)
        }

        @Test func sharedValueTypeIsBuiltAnewOnEveryResolution() {
            let first = Injections.container.resolve(\.sharedValue)
            let second = Injections.container.resolve(\.sharedValue)
            #expect(first.serial != second.serial)
        }

        @Test func cachedInstanceIsReusedUntilItsScopeIsReset() {
            let first = Injections.container.resolve(\.cachedService)
            #expect(Injections.container.resolve(\.cachedService) === first)
            Injections.Scope.cached.reset()
            #expect(Injections.container.resolve(\.cachedService) !== first)
        }

        @Test func resettingAScopeReleasesWhatItHeld() {
            weak var released: Service?
            released = Injections.container.resolve(\.cachedService)
            #expect(released != nil)
            Injections.Scope.cached.reset()
            #expect(released == nil)
        }

        @Test func twoKeysOfOneTypeInOneScopeHoldTwoInstances() {
            let first = Injections.container.resolve(\.cachedService)
            let second = Injections.container.resolve(\.otherCachedService)
            #expect(first !== second)
            #expect(first.name == "cached")
            #expect(second.name == "other cached")
        }

        @Test func applicationInstanceSurvivesResetAllUnlessIncluded() {
            let first = Injections.container.resolve(\.applicationService)
            let cached = Injections.container.resolve(\.cachedService)
            Injections.Scope.resetAll()
            #expect(Injections.container.resolve(\.applicationService) === first)
            #expect(Injections.container.resolve(\.cachedService) !== cached)
            Injections.Scope.resetAll(includingApplication: true)
            #expect(Injections.container.resolve(\.applicationService) !== first)
        }

        @Test func customScopeResetDropsOnlyItsOwnInstances() {
            let session = Injections.container.resolve(\.sessionService)
            let cached = Injections.container.resolve(\.cachedService)
            #expect(Injections.container.resolve(\.sessionService) === session)
            Injections.Scope.testSession.reset()
            #expect(Injections.container.resolve(\.sessionService) !== session)
            #expect(Injections.container.resolve(\.cachedService) === cached)
        }

        @Test func customWeakScopeHoldsInstancesWeakly() {
            weak var released: Service?
            do {
                let held = Injections.container.resolve(\.weakCustomService)
                released = held
                #expect(Injections.container.resolve(\.weakCustomService) === held)
            }
            #expect(released == nil)
        }

        @Test func nilIsNeverCached() {
            #expect(Injections.container.resolve(\.optionalCachedService) == nil)
            Injections.container.register(\.optionalCachedService) { Service("registered") }
            #expect(Injections.container.resolve(\.optionalCachedService)?.name == "registered")
            Injections.container.reset()
        }

        // The time to live is 300 ms; 400 ms of sleep pass it for sure, since `Task.sleep`
        // never wakes early, and its clock (`ContinuousClock`) runs as the expiry's monotonic
        // one does while the machine is awake. Here, on the global container, the third
        // resolution may take the fast path, which must see the expiry too.
        @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
        @Test func cachedInstanceIsRebuiltAfterItsTimeToLive() async throws {
            let first = Injections.container.resolve(\.expiringService)
            #expect(Injections.container.resolve(\.expiringService) === first)
            try await Task.sleep(for: .milliseconds(400))
            #expect(Injections.container.resolve(\.expiringService) !== first)
        }

        @Test func graphScopeSharesOneInstanceWithinOneResolution() {
            let pair = Injections.container.resolve(\.graphPair)
            #expect(pair.0 === pair.1)
            let next = Injections.container.resolve(\.graphPair)
            #expect(next.0 !== pair.0)
        }

        @Test func graphScopeNeverCachesNilEvenInsideAnExistential() {
            let before = Counters.graphBuilds.count
            _ = Injections.container.resolve(\.graphNilInAnyTwice)
            #expect(Counters.graphBuilds.count - before == 2)
        }
    }
}

/// A custom scope's time to live reaches the registrations of that scope. Each test runs in its
/// own layer (the `.injections` trait), whose caches are its own, so that it sleeps past the
/// time to live in parallel with the other suites, and no reset of theirs drops its instance.
@Suite(.injections { _ in }) struct ScopeTimeToLiveTests {
    // As above: 300 ms to live, and 400 ms of sleep.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    @Test func customScopeTimeToLiveAppliesToItsRegistrations() async throws {
        #expect(Injections.Scope.shortLived.timeToLive == .milliseconds(300))
        let first = Injections.container.resolve(\.shortLivedService)
        #expect(Injections.container.resolve(\.shortLivedService) === first)
        try await Task.sleep(for: .milliseconds(400))
        #expect(Injections.container.resolve(\.shortLivedService) !== first)
    }
}
