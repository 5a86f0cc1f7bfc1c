import InjectableKit
import XCTest

/// An `XCTestCase` whose tests each run in their own overrides and scope caches.
///
/// ```swift
/// final class AccountsTests: InjectableTestCase {
///     override func registerOverrides(_ overrides: Injections.LocalOverrides) {
///         overrides.register(\.api) { MockAPI() }
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
    /// - Parameter overrides: The test's layer, with the same `register` forms as
    ///   `Injections.container`.
    open func registerOverrides(_ overrides: Injections.LocalOverrides) {}

    /// Runs the test inside its own overrides.
    override open func invokeTest() {
        Injections.withOverrides {
            registerOverrides($0)
        } operation: {
            super.invokeTest()
        }
    }
}
