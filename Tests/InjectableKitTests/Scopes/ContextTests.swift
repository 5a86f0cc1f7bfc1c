import Foundation
import InjectableKit
import Testing

@testable import InjectableTesting

extension Injections {
    var contextualGreeting: any LayeredGreeting {
        when(.argument("--injectablekit-never-passed")) { MockGreeting("argument") }
            ?? when(.test) { MockGreeting("test") }
            ?? LiveGreeting()
    }
    var previewGreeting: any LayeredGreeting {
        when(.preview) { MockGreeting("preview") } ?? LiveGreeting()
    }
    var deviceGreeting: any LayeredGreeting {
        when(.simulator) { MockGreeting("simulator") }
            ?? when(.device) { MockGreeting("device") } ?? LiveGreeting()
    }
    var liveOnlyGreeting: any LayeredGreeting { shared(liveOnly(LiveGreeting())) }
    var anyOfContextsGreeting: any LayeredGreeting {
        when(.preview, .argument("--injectablekit-never-passed")) { MockGreeting("neither") }
            ?? when(.preview, .test) { MockGreeting("either") } ?? LiveGreeting()
    }
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

    @Test func anAlternativeForSeveralContextsAppliesWhenAnyOfThemIsActive() {
        // Neither the preview nor the argument holds; the test context does.
        #expect(Injections.container.resolve(\.anyOfContextsGreeting).text == "either")
    }

    @Test func theDebugContextFollowsTheBuildConfiguration() {
        #if DEBUG
            #expect(Injections.Context.debug.isActive)
        #else
            #expect(!Injections.Context.debug.isActive)
        #endif
    }

    @Test func theSimulatorAndDeviceContextsFollowTheBuildTarget() {
        // On Linux and macOS, never a simulator; in an iOS simulator build, always one.
        #if targetEnvironment(simulator)
            let expected = "simulator"
        #else
            let expected = "device"
        #endif
        #expect(Injections.Context.simulator.isActive == (expected == "simulator"))
        #expect(Injections.Context.device.isActive == (expected == "device"))
        #expect(Injections.container.resolve(\.deviceGreeting).text == expected)
    }

    @Test func overridesWinOverContextAlternatives() {
        Injections.withOverrides {
            $0.register(\.contextualGreeting) { MockGreeting("override") }
        } operation: {
            #expect(Injections.container.resolve(\.contextualGreeting).text == "override")
        }
    }

    @Test func aLiveOnlyValueFailsTheTestNamingTheOverrideToAddAndTheRunGoesOn() {
        // In a layer with no override: InjectableTesting, linked into this test process,
        // records the failure as this test's issue, and the resolution returns the live value.
        Injections.withOverrides { _ in
        } operation: {
            withKnownIssue {
                #expect(Injections.container.resolve(\.liveOnlyGreeting).text == "live")
            } matching: { issue in
                issue.comments.contains {
                    $0.rawValue.contains(#"\.liveOnlyGreeting built its live value under tests"#)
                        && $0.rawValue.contains(#"$0.register(\.liveOnlyGreeting) { ... }"#)
                }
            }
        }
    }

    @Test func aLiveOnlyValueReachedOutsideTheTestsLayerSaysHowToCarryIt() async {
        // Detached work leaves the layer, its override and the test: reported once, for the
        // run (here to a sink).
        let reports = await TestIssueReporter.unattributedReports {
            await Injections.withOverrides {
                $0.register(\.liveOnlyGreeting) { MockGreeting("safe") }
            } operation: {
                await Task.detached { _ = Injections.container.resolve(\.liveOnlyGreeting) }.value
            }
        }
        let messages = reports.filter { $0.contains(#"\.liveOnlyGreeting"#) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("ran outside any test's layer") == true)
        #expect(messages.first?.contains("Injections.currentOverrides") == true)
    }

    @Test func aLiveOnlyValueIsNotBuiltWhenATestOverridesIt() {
        Injections.withOverrides {
            $0.register(\.liveOnlyGreeting) { MockGreeting("safe") }
        } operation: {
            #expect(Injections.container.resolve(\.liveOnlyGreeting).text == "safe")
        }
    }
}
