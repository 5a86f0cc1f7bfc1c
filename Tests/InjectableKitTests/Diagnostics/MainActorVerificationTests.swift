import Foundation
import InjectableKit
import Synchronization
import Testing

/// Whether the slow screen's getter has returned.
let slowScreenFinished = Atomic<Bool>(false)

/// Where an app's screens start: `@MainActor` view models.
@MainActor final class VerifiedScreenModel {
    let reporter: VerifyReporter
    init(reporter: VerifyReporter) { self.reporter = reporter }
}

extension Injections {
    @MainActor var verifiedScreen: VerifiedScreenModel {
        VerifiedScreenModel(reporter: resolve(\.verifyFreshReporter))
    }
    /// Built from a reporter that keeps a unique formatter: the scope mismatch shows through.
    @MainActor var mismatchedScreen: VerifiedScreenModel {
        VerifiedScreenModel(reporter: resolve(\.verifyReporter))
    }
    /// Slower than the test's timeout.
    @MainActor var slowScreen: VerifiedScreenModel {
        Thread.sleep(forTimeInterval: 0.5)
        defer { slowScreenFinished.store(true, ordering: .sequentiallyConsistent) }
        return VerifiedScreenModel(reporter: resolve(\.verifyFreshReporter))
    }
    @MainActor var cyclicScreen: VerifiedScreenModel {
        _ = resolve(\.cycleSession)
        return VerifiedScreenModel(reporter: resolve(\.verifyFreshReporter))
    }
}

/// `verify` takes the `@MainActor` keys where screens start, from main-actor code, and reports
/// what their graphs hold as it does for any key. Each check runs in a fresh layer of its own,
/// so these run in parallel with other suites; the cycle's check runs in a child process.
@Suite struct MainActorVerificationTests {
    @MainActor @Test func aMainActorRootVerifies() {
        let report = Injections.verify { $0.resolve(\.verifiedScreen) }
        #expect(report.isValid, "\(report)")
        #expect(report.keyCount == 1)
    }

    @MainActor @Test func aMainActorRootReportsWhatItsGraphHolds() {
        let report = Injections.verify { keys in
            keys.resolve(\.mismatchedScreen)
            keys.resolve(\.verifyTitle)  // a key of any isolation, in the same list
        }
        #expect(report.keyCount == 2)
        #expect(report.problems.map(\.kind) == [.scopeMismatch], "\(report)")
        #expect(
            report.problems.first?.message.hasPrefix(#"\.verifyReporter (cached) holds"#) == true)
    }

    @MainActor @Test func aSlowMainActorRootIsReportedAndWaitedFor() {
        let report = Injections.verify(timeout: .milliseconds(20)) { $0.resolve(\.slowScreen) }
        #expect(report.problems.map(\.kind) == [.timedOut], "\(report)")
        // Its check ran main-actor code: it has finished by the time `verify` returns.
        let finished = slowScreenFinished.load(ordering: .sequentiallyConsistent)
        #expect(finished)
    }

    @Test func aCycleUnderAMainActorRootIsReportedAndTheProcessGoesOn() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let report = Injections.verify { $0.resolve(\.cyclicScreen) }
                #expect(report.problems.map(\.kind) == [.cycle], "\(report)")
                #expect(
                    report.problems.first?.message.contains(
                        #"dependency cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#)
                        == true)
            }
        }
    }
}
