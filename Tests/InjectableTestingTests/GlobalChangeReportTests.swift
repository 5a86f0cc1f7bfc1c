import Foundation
import InjectableKit
import Testing

@testable import InjectableTesting

extension Injections {
    var leakProbeClock: any Clock { SystemClock() }
}

/// A test's change of the global overrides is reported as its failure, naming the key, the
/// call site and the fix. Each test here makes its change inside `withKnownIssue` and undoes
/// it at once; the key is one no other test resolves, so the change reaches no other test.
struct GlobalChangeReportTests {
    @Test func aGlobalRegisterInATestFailsItNamingTheKeyTheCallSiteAndTheFix() {
        withKnownIssue {
            Injections.container.register(\.leakProbeClock) { FixedClock(now: "leak") }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("register(")
                    && $0.rawValue.contains("GlobalChangeReportTests.swift:")
                    && $0.rawValue.contains("changed the global overrides")
                    && $0.rawValue.contains(".injections")
                    && $0.rawValue.contains(".globalInjections")
            }
        }
        TestIssueReporter.$usesGlobalContainer.withValue(true) {
            Injections.container.reset(\.leakProbeClock)
        }
    }

    @Test func aGlobalTypeRegisterAndResetAreReportedToo() {
        withKnownIssue {
            Injections.container.register { FixedClock(now: "leak") as FixedClock }
            Injections.container.reset(FixedClock.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("changed the global overrides") }
        }
    }

    @Test(.injections()) func aRegisterInTheTestsLayerIsNotReported() {
        Injections.container.register(\.leakProbeClock) { FixedClock(now: "mine") }
        #expect(Injections.container.resolve(\.leakProbeClock).now == "mine")
    }

    @Test func aChangeInWorkThatLeftALayeredTestIsReportedOncePerCallSite() async throws {
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections().provideScope(
                for: try #require(Test.current), testCase: Test.Case.current
            ) {
                for _ in 0..<2 {
                    // Detached work leaves the test's layer, and `Test.current`.
                    await Task.detached {
                        Injections.container.register(\.leakProbeClock) { FixedClock(now: "x") }
                        TestIssueReporter.$usesGlobalContainer.withValue(true) {
                            Injections.container.reset(\.leakProbeClock)
                        }
                    }.value
                }
            }
        }
        let messages = reports.filter { $0.contains("GlobalChangeReportTests.swift:") }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("changed the global overrides") == true)
    }
}
