import Foundation
import InjectableKit
import TestSupport
import Testing

@testable import InjectableTesting

extension Injections {
    // Of a type of its own, which no type override of another test's layer serves: a detached
    // resolution is reported to every test whose layer overrides its key, by key or by type.
    var detachedProbeClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
    var detachedBystanderClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
    var detachedCarriedClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
    var detachedBystanderTestsClock: any Clock { shared(SystemClock()) }
}

/// Work that leaves a layered test's task resolves outside its layer: of a key the layer
/// overrides, that resolution got the live value, and is reported. The keys are this suite's
/// own, so no other test's layer overrides them.
struct UnlayeredResolutionReportTests {
    @Test func aResolutionInWorkThatLeftALayeredTestIsReportedOncePerKeyToThatTest() async throws {
        _ = Injections.container.resolve(\.detachedProbeClock)  // the key's name is learned
        let test = try #require(Test.current)
        let seen = Guarded<[String]>([])
        let reported = Guarded<[Issue]>([])
        // Collecting: reported even while this library's `.globalInjections` tests run.
        _ = try await TestIssueReporter.unattributedReports {
            try await withKnownIssue {
                try await InjectionsTrait.injections {
                    $0.register(\.detachedProbeClock) { DetachedProbeClock(now: "mock") }
                }.provideScope(for: test, testCase: Test.Case.current) {
                    for _ in 0..<2 {
                        let now = await Task.detached {
                            Injections.container.resolve(\.detachedProbeClock).now
                        }.value
                        seen.withLock { $0.append(now) }
                    }
                }
            } matching: { issue in
                let matches = issue.comments.contains {
                    $0.rawValue.contains("detachedProbeClock was resolved outside any layer")
                }
                if matches { reported.withLock { $0.append(issue) } }
                return matches
            }
        }
        #expect(seen.withLock { $0 } == ["live", "live"])
        let issues = reported.withLock { $0 }
        #expect(issues.count == 1)
        // The test's issue (recorded in its task, as its layer closed), at its declaration:
        // the detached resolution's call site is not known.
        #expect(issues.first?.sourceLocation == test.sourceLocation)
        #expect(
            issues.first?.comments.contains { $0.rawValue.contains("Injections.currentOverrides") }
                == true)
    }

    @Test func aResolutionOfAKeyNoTestOverridesIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedBystanderClock)  // the key's name is learned
        // A report would be this test's issue, and fail it. Collecting: reports are made even
        // while this library's `.globalInjections` tests run.
        _ = try await TestIssueReporter.unattributedReports {
            // Its own key: every running test that overrides a key gets its report.
            try await InjectionsTrait.injections {
                $0.register(\.detachedBystanderTestsClock) { FixedClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                _ = await Task.detached { Injections.container.resolve(\.detachedBystanderClock) }
                    .value
            }
        }
    }

    @Test func workCarryingTheTestsLayerIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedCarriedClock)  // the key's name is learned
        // A report would be this test's issue, and fail it (collecting, as above).
        _ = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedCarriedClock) { DetachedProbeClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                let overrides = Injections.currentOverrides
                let now = await Task.detached {
                    Injections.withOverrides(overrides) {
                        Injections.container.resolve(\.detachedCarriedClock).now
                    }
                }.value
                #expect(now == "mock")
            }
        }
    }
}
