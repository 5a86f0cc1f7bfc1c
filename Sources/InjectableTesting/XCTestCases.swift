import Foundation
import XCTest

/// Counts the XCTest cases running, whatever their class, so that a mistake made in a plain
/// `XCTestCase` fails it (XCTest runs one case at a time) instead of stopping the run.
final class XCTestCases: NSObject, XCTestObservation, @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    private static let shared = XCTestCases()

    /// Registered once, before the first test where the platform runs initializers at load
    /// (`installAtLoad`), else at this library's first use.
    private static let registered: Void = XCTestObservationCenter.shared.addTestObserver(shared)

    static func observe() { registered }

    /// The XCTest cases running now.
    static var running: Int { shared.lock.locked { shared.count } }

    func testCaseWillStart(_ testCase: XCTestCase) { lock.locked { count += 1 } }
    func testCaseDidFinish(_ testCase: XCTestCase) { lock.locked { count -= 1 } }
}
