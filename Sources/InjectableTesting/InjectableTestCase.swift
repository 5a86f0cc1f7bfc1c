import InjectableKit
import XCTest

/// An `XCTestCase` whose tests each run in their own overrides and scope caches.
///
/// ```swift
/// final class AccountsTests: InjectableTestCase {
///     override func registerOverrides(_ injections: Injections) {
///         injections.register(\.api) { MockAPI() }
///     }
///
///     func testLoadsAccounts() async throws {
///         let model = AccountsViewModel()
///         try await model.load()
///         XCTAssertEqual(model.accounts.count, 2)
///     }
/// }
/// ```
///
/// Each test, with its `setUp` and `tearDown`, runs inside `Injections.withOverrides`, so
/// `Injections.container.register` and scope resets in one test never reach another. (The
/// classic alternative, `Injections.container.push()` in `setUp` and `pop()` in `tearDown`,
/// isolates tests run one after another, but not tests run in parallel.)
open class InjectableTestCase: XCTestCase {
    /// Registers the overrides every test of the class starts with. Does nothing unless
    /// overridden.
    ///
    /// It runs in the test's layer: every operation of `Injections.container`, called on the
    /// value it is passed, changes that layer alone.
    ///
    /// - Parameter injections: The container, in the test's layer.
    open func registerOverrides(_ injections: Injections) {}

    /// Whether a test fails when a type override of its layer served no resolution in it.
    /// `true` unless overridden.
    ///
    /// A type override serves only keys declared with exactly its type, so
    /// `register { MockService() }` does nothing for keys declared `any MyServiceType`: the
    /// failure names the type and the fix. The check is made for each test, so register in
    /// ``registerOverrides(_:)`` the type overrides every test of the class uses, and the rest
    /// in the tests that use them, or return `false` here.
    open var reportsUnusedOverrides: Bool { true }

    /// Runs the test inside its own overrides, then fails it for each type override that
    /// served nothing (see ``reportsUnusedOverrides``).
    override open func invokeTest() {
        TestIssueReporter._install()
        XCTestCases.observe()
        let layer = Injections.makeOverrides { registerOverrides($0) }
        TestIssueReporter.xctestCase {
            Injections.withOverrides(Injections._testLayer(layer)) {
                super.invokeTest()
            }
        }
        // A skipped or failed test may not have reached the code that uses an override.
        guard reportsUnusedOverrides, let run = testRun, !run.hasBeenSkipped,
            run.totalFailureCount == 0
        else { return }
        for case .unused(_, let message) in layer.typeOverrides {
            // Where the override was registered is not known: unlocated, not in this file.
            let message = "InjectableKit: " + message
            if !XCTestCases.fail(message, fileID: nil, line: 0) { XCTFail(message) }
        }
    }
}
