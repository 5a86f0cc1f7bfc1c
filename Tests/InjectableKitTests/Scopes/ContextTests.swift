import InjectableKit
import Testing

extension Injections {
    var contextualGreeting: any LayeredGreeting {
        when(.argument("--injectablekit-never-passed")) { MockGreeting("argument") }
            ?? when(.test) { MockGreeting("test") }
            ?? LiveGreeting()
    }
    var previewGreeting: any LayeredGreeting {
        when(.preview) { MockGreeting("preview") } ?? LiveGreeting()
    }
    var liveOnlyGreeting: any LayeredGreeting { shared(liveOnly(LiveGreeting())) }
}

/// These run under the test runner, so the `test` context is active.
@Suite struct ContextTests {
    @Test func aRegistrationPicksItsTestAlternativeUnderTests() {
        #expect(Injections.Context.test.isActive)
        #expect(Injections.container.resolve(\.contextualGreeting).text == "test")
    }

    @Test func contextsThatDoNotHoldAreSkipped() {
        #expect(!Injections.Context.argument("--injectablekit-never-passed").isActive)
        #expect(!Injections.Context.preview.isActive)
        #expect(Injections.container.resolve(\.previewGreeting).text == "live")
    }

    @Test func theDebugContextFollowsTheBuildConfiguration() {
        #if DEBUG
            #expect(Injections.Context.debug.isActive)
        #else
            #expect(!Injections.Context.debug.isActive)
        #endif
    }

    @Test func overridesWinOverContextAlternatives() {
        Injections.withOverrides {
            $0.register(\.contextualGreeting) { MockGreeting("override") }
        } operation: {
            #expect(Injections.container.resolve(\.contextualGreeting).text == "override")
        }
    }

    @Test func aLiveOnlyValueStopsTheTestsWithAMessageNamingItsKey() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.liveOnlyGreeting)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(#"\.liveOnlyGreeting built its live value under tests"#))
    }

    @Test func aLiveOnlyValueIsNotBuiltWhenATestOverridesIt() {
        Injections.withOverrides {
            $0.register(\.liveOnlyGreeting) { MockGreeting("safe") }
        } operation: {
            #expect(Injections.container.resolve(\.liveOnlyGreeting).text == "safe")
        }
    }
}
