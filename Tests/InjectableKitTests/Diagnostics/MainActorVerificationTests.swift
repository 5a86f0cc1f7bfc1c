import InjectableKit
import Testing

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
        #expect(report.isValid, "\(report)")
        #expect(report.keyCount == 1)
    }

    @MainActor @Test func aMainActorRootReportsWhatItsGraphHolds() {
        let report = Injections.verify { keys in
            keys.resolveIsolated(\.mismatchedScreen)
            keys.resolve(\.verifyTitle)
        }
        #expect(report.keyCount == 2)
        #expect(report.problems.map(\.kind) == [.scopeMismatch], "\(report)")
        #expect(
            report.problems.first?.message.hasPrefix(#"\.verifyReporter (cached) holds"#) == true)
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
