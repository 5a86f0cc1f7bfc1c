import Foundation
import InjectableKit
import InjectableTesting
import Testing

extension Injections {
    var mistakeLiveOnlyClock: any Clock { liveOnly(SystemClock()) }
    var mistakeClocks: Contributions<any Clock> { cached(contributions(to: \.mistakeClocks)) }
}

/// A mistake the library can go on from fails the test that made it: at the call that made it
/// where the library knows it (a contribution's), else at the test's own declaration (a
/// resolution takes no call site), never in a library file. Without `@testable`, so that CI runs
/// it against an optimised build of the library without testable imports.
struct MistakeReportTests {
    @Test(.injections())
    func aLiveOnlyKeyReachedInALayeredTestFailsItAtItsDeclaration() throws {
        let test = try #require(Test.current)
        withKnownIssue {
            #expect(Injections.container.resolve(\.mistakeLiveOnlyClock).now == "live")
        } matching: { issue in
            issue.sourceLocation == test.sourceLocation
                && issue.comments.contains { $0.rawValue.contains("marked liveOnly") }
        }
    }

    @Test func aContributionOutsideTheHookFailsTheTestAtTheCall() {
        let line = #line + 2
        withKnownIssue {
            Injections.container.contribute(\.testingClock, to: \.mistakeClocks)
        } matching: { issue in
            issue.sourceLocation?.fileID == "InjectableTestingTests/MistakeReportTests.swift"
                && issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("was made outside") }
        }
        #expect(Injections.container.resolve(\.mistakeClocks).isEmpty)
    }
}
