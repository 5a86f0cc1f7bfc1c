import Foundation
import InjectableKit
import TestSupport
import Testing

@testable import InjectableTesting

extension Injections {
    var detachedProbeClock: any Clock { shared(SystemClock()) }
    /// Of a type of its own, which no type override of another test's layer serves.
    var detachedBystanderClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
    var detachedCarriedClock: DetachedProbeClock { shared(DetachedProbeClock(now: "live")) }
}

/// Work that leaves a layered test's task resolves outside its layer: of a key the layer
/// overrides, that resolution got the live value, and is reported. The keys are this suite's
/// own, so no other test's layer overrides them.
struct UnlayeredResolutionReportTests {
    @Test func aResolutionInWorkThatLeftALayeredTestIsReportedOncePerKey() async throws {
        _ = Injections.container.resolve(\.detachedProbeClock)  // the key's name is learned
        let seen = Guarded<[String]>([])
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedProbeClock) { FixedClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                for _ in 0..<2 {
                    let now = await Task.detached {
                        Injections.container.resolve(\.detachedProbeClock).now
                    }.value
                    seen.withLock { $0.append(now) }
                }
            }
        }
        #expect(seen.withLock { $0 } == ["live", "live"])
        let messages = reports.filter { $0.contains("detachedProbeClock") }
        #expect(messages.count == 1, "\(reports)")
        #expect(messages.first?.contains("resolved outside any layer") == true)
        #expect(messages.first?.contains("Injections.currentOverrides") == true)
    }

    @Test func aResolutionOfAKeyNoTestOverridesIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedBystanderClock)  // the key's name is learned
        let reports = try await TestIssueReporter.unattributedReports {
            try await InjectionsTrait.injections {
                $0.register(\.detachedProbeClock) { FixedClock(now: "mock") }
            }.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                _ = await Task.detached { Injections.container.resolve(\.detachedBystanderClock) }
                    .value
            }
        }
        #expect(!reports.contains { $0.contains("detachedBystanderClock") }, "\(reports)")
    }

    @Test func workCarryingTheTestsLayerIsNotReported() async throws {
        _ = Injections.container.resolve(\.detachedCarriedClock)  // the key's name is learned
        let reports = try await TestIssueReporter.unattributedReports {
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
        #expect(!reports.contains { $0.contains("detachedCarriedClock") }, "\(reports)")
    }
}

/// The type of keys that only `UnlayeredResolutionReportTests` use.
struct DetachedProbeClock: Sendable {
    let now: String
}
