import Foundation
import InjectableKit
import InjectableTesting
import Testing

extension Injections {
    var mistakeLiveOnlyClock: any Clock { liveOnly(SystemClock()) }
    var mistakeClocks: Contributions<any Clock> { cached(contributions(to: \.mistakeClocks)) }
}

/// A mistake the library can go on from fails the test that made it: at the call that made it
/// (a contribution's, a resolution's), else at the test's own declaration (a lazy wrapper's
/// first read), never in a library file. Without `@testable`, so that CI runs
/// it against an optimised build of the library without testable imports.
struct MistakeReportTests {
    @Test(.injections())
    func aLiveOnlyKeyReachedInALayeredTestFailsItAtTheResolution() {
        let line = #line + 2
        withKnownIssue {
            #expect(Injections.container.resolve(\.mistakeLiveOnlyClock).now == "live")
        } matching: { issue in
            issue.sourceLocation?.fileID == "InjectableTestingTests/MistakeReportTests.swift"
                && issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("marked liveOnly") }
        }
    }

    @MainActor @Test(.injections())
    func aLiveOnlyKeyVerifiedOnTheCallersThreadFailsTheTestWhereTheKeyIsNamed() {
        let line = #line + 3
        withKnownIssue {
            _ = Injections.verify { keys in
                keys.resolveIsolated(\.mistakeLiveOnlyClock)
            }
        } matching: { issue in
            issue.sourceLocation?.fileID == "InjectableTestingTests/MistakeReportTests.swift"
                && issue.sourceLocation?.line == line
                && issue.comments.contains { $0.rawValue.contains("marked liveOnly") }
        }
    }

    @Test(.injections())
    func aLiveOnlyKeyFirstReadByALazyWrapperFailsTheTestAtItsDeclaration() throws {
        struct Owner {
            @LazyInjectable(\.mistakeLiveOnlyClock) var clock
        }
        let test = try #require(Test.current)
        let owner = Owner()
        withKnownIssue {
            #expect(owner.clock.now == "live")
        } matching: { issue in
            // A first read is not a call that names its site: the test's declaration.
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
