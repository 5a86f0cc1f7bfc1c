import Foundation
import InjectableKit
import Testing

final class VerifyFormatter: Sendable {}

final class VerifyReporter: Sendable {
    let formatter: VerifyFormatter
    let title: String
    init(formatter: VerifyFormatter, title: String) {
        self.formatter = formatter
        self.title = title
    }
}

extension Injections {
    var verifyTitle: String { "Report" }
    var verifyFormatter: VerifyFormatter { VerifyFormatter() }
    var verifySharedFormatter: VerifyFormatter { shared(VerifyFormatter()) }
    /// Keeps the unique formatter it was built with: a scope mismatch.
    var verifyReporter: VerifyReporter {
        cached(VerifyReporter(formatter: resolve(\.verifyFormatter), title: resolve(\.verifyTitle)))
    }
    /// Holds an application-wide instance built from a shared one: a scope mismatch.
    var verifyAppReporter: VerifyReporter {
        application(
            VerifyReporter(
                formatter: resolve(\.verifySharedFormatter), title: resolve(\.verifyTitle)))
    }
    /// A unique reporter may hold a unique formatter.
    var verifyFreshReporter: VerifyReporter {
        VerifyReporter(formatter: resolve(\.verifyFormatter), title: resolve(\.verifyTitle))
    }
    var verifyUser: Service? { nil }
    /// Its helper tells the resolution its name.
    var verifyNamedUser: Service? { shared(nil) }
}

/// `verify` resolves every key in a fresh layer of its own, so these run in parallel with other
/// suites. The checks that find a cycle run in a child process (an exit test): verification
/// parks the thread that found it, for good.
@Suite struct VerificationTests {
    @Test func aSoundSetOfKeysVerifies() {
        let report = Injections.verify { keys in
            keys.resolve(\.verifyFreshReporter)
            keys.resolve(\.verifyTitle)
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.description == "InjectableKit verified 2 keys: no problems")
    }

    @Test func aKeyThatMustBeSetIsReportedWhenItIsNil() {
        let report = Injections.verify { $0.resolveNonNil(\.verifyUser) }
        #expect(report.problems.map(\.kind) == [.unset])
        // A plain getter teaches no name: the key is named from its keypath.
        #expect(
            report.problems.first?.description
                == #"\.verifyUser: resolved to nil, but it must be set"#)
    }

    @Test func aKeyWhoseRegistrationRanIsNamedByIt() {
        let report = Injections.verify { $0.resolveNonNil(\.verifyNamedUser) }
        #expect(
            report.problems.map(\.description) == [
                #"\.verifyNamedUser: resolved to nil, but it must be set"#
            ])
    }

    @Test func theOverridesInEffectApplyToEveryKey() {
        let report = Injections.withOverrides {
            $0.register(\.verifyUser) { Service("signed in") }
        } operation: {
            Injections.verify { $0.resolveNonNil(\.verifyUser) }
        }
        #expect(report.problems.isEmpty, "\(report)")
        #expect(Injections.container.resolve(\.verifyUser) == nil)
    }

    @Test func aTypeOverrideNoVerifiedKeyUsedIsListedWithTheFix() {
        let report = Injections.withOverrides {
            $0.register { VerifyFormatter() }  // serves \.verifyFormatter
            $0.register { Service("unused") }  // no verified key is declared `Service`
        } operation: {
            Injections.verify { $0.resolve(\.verifyFreshReporter) }
        }
        #expect(report.problems.map(\.kind) == [.unusedOverride])
        #expect(
            report.problems.first?.description.hasPrefix(
                "register { ... as InjectableKitTests.Service }: "
                    + "the type override for InjectableKitTests.Service served no resolution"
            ) == true)
    }

    @Test func aLongLivedInstanceHoldingAShorterLivedOneIsAScopeMismatch() {
        let report = Injections.verify { keys in
            keys.resolve(\.verifyReporter)
            keys.resolve(\.verifyAppReporter)
        }
        #expect(report.problems.map(\.kind) == [.scopeMismatch, .scopeMismatch])
        let messages = report.problems.map(\.description)
        #expect(
            messages.first?.hasPrefix(#"\.verifyReporter: \.verifyReporter (cached) holds"#) == true
        )
        #expect(messages.first?.contains("(unique), a new instance on every resolution") == true)
        #expect(
            messages.last?.hasPrefix(
                #"\.verifyAppReporter: \.verifyAppReporter (application) holds"#)
                == true)
        #expect(messages.last?.contains("(shared)") == true)
        // The title is a value: a cached instance may keep a copy.
        #expect(!messages.contains { $0.contains("verifyTitle") })
    }

    @Test func everyProblemIsReportedAtOnceIncludingCycles() async {
        await #expect(processExitsWith: .success) {
            let report = Injections.verify { keys in
                keys.resolve(\.cycleSession)
                keys.resolveNonNil(\.verifyUser)
                keys.resolve(\.verifyReporter)
                keys.resolve(\.verifyFreshReporter)
                keys.resolve(\.[sameAgain: 7])
            }
            #expect(report.problems.map(\.kind) == [.cycle, .unset, .scopeMismatch, .cycle])
            #expect(
                report.problems.first?.description.contains(
                    #"dependency cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#) == true)
            #expect(report.description.hasPrefix("InjectableKit verified 5 keys: 4 problems\n- "))
            // The process goes on, and the container still works.
            #expect(Injections.container.resolve(\.verifyTitle) == "Report")
        }
    }

    @Test func theTraceReportsACycleWithItsWholeChain() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardOutputContent]
        ) {
            Injections.container.trace()
            _ = Injections.container.resolve(\.cycleSession)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(output.contains(#"cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#))
    }
}

/// Where an app's screens start: `@MainActor` view models.
@MainActor final class VerifiedScreenModel {
    let reporter: VerifyReporter
    init(reporter: VerifyReporter) { self.reporter = reporter }
}

extension Injections {
    /// Built on the main actor, as the app builds it: `assumeIsolated` traps anywhere else.
    @MainActor var verifiedScreen: VerifiedScreenModel {
        MainActor.assumeIsolated { VerifiedScreenModel(reporter: resolve(\.verifyFreshReporter)) }
    }
    /// Built from a reporter that keeps a unique formatter: the scope mismatch shows through.
    @MainActor var mismatchedScreen: VerifiedScreenModel {
        VerifiedScreenModel(reporter: resolve(\.verifyReporter))
    }
    @MainActor var cyclicScreen: VerifiedScreenModel {
        _ = resolve(\.cycleSession)
        return VerifiedScreenModel(reporter: resolve(\.verifyFreshReporter))
    }
}

/// `verify` takes the `@MainActor` keys where screens start, from main-actor code, and reports
/// what their graphs hold as it does for any key. Each check runs in a fresh layer of its own,
/// so these run in parallel with other suites; the cycles' checks run in child processes.
@Suite struct MainActorVerificationTests {
    @MainActor @Test func aMainActorRootVerifiesOnTheMainActor() {
        let report = Injections.verify { $0.resolveIsolated(\.verifiedScreen) }
        #expect(report.description == "InjectableKit verified 1 key: no problems")
    }

    @MainActor @Test func aMainActorRootReportsWhatItsGraphHolds() {
        let report = Injections.verify { keys in
            keys.resolveIsolated(\.mismatchedScreen)
            keys.resolve(\.verifyTitle)
        }
        #expect(report.description.hasPrefix("InjectableKit verified 2 keys: 1 problem\n"))
        #expect(report.problems.map(\.kind) == [.scopeMismatch], "\(report)")
        #expect(
            report.problems.first?.description.contains(#": \.verifyReporter (cached) holds"#)
                == true)
    }

    @Test func aCycleBeneathAMainActorRootIsReportedThroughItsNonisolatedKey() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let report = Injections.verify { keys in
                    keys.resolve(\.cycleSession)
                    keys.resolveIsolated(\.cyclicScreen)
                }
                #expect(report.problems.map(\.kind) == [.cycle, .notChecked], "\(report)")
            }
        }
    }

    @Test func aCycleReachedOnTheCallersThreadStopsWithItsMessage() async {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            await MainActor.run {
                _ = Injections.verify { $0.resolveIsolated(\.cyclicScreen) }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(#"dependency cycle: \.cycleSession -> \.cycleAPI"#))
    }
}
