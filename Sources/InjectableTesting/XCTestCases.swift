import Foundation
import XCTest

/// The XCTest cases running, whatever their class, so that a mistake made in a plain
/// `XCTestCase` fails it (XCTest runs one case at a time; a case may run another inside it)
/// instead of stopping the run, and a report with a known call site lands on that line.
final class XCTestCases: NSObject, XCTestObservation, Sendable {
    private let cases = Locked<[XCTestCase]>([])

    private static let shared = XCTestCases()

    /// Registered once, before the first test where the platform runs initializers at load
    /// (`installAtLoad`), else at this library's first use.
    private static let registered: Void = XCTestObservationCenter.shared.addTestObserver(shared)

    static func observe() { registered }

    /// Records `message` as a failure of the innermost case running, at `fileID`:`line` (the
    /// test's own call), rather than at this library's call to `XCTFail`; with no `fileID`
    /// (a call site the library does not know), without a location, as XCTest records one.
    ///
    /// - Returns: Whether a case was running to record it.
    static func fail(_ message: String, fileID: String?, line: Int) -> Bool {
        guard let testCase = shared.cases.withLock({ $0.last }) else { return false }
        #if canImport(Darwin)
            let location = fileID.map { XCTSourceCodeLocation(filePath: $0, lineNumber: line) }
            testCase.record(
                XCTIssue(
                    type: .assertionFailure, compactDescription: message,
                    sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
            // NB: `recordFailure` here takes a file, which XCTest itself writes `<unknown>` when
            // it has none (its run's form, which takes `nil`, is internal).
            testCase.recordFailure(
                withDescription: message, inFile: fileID ?? "<unknown>", atLine: line,
                expected: true)
        #endif
        return true
    }

    func testCaseWillStart(_ testCase: XCTestCase) { cases.withLock { $0.append(testCase) } }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        cases.withLock { cases in
            if let index = cases.lastIndex(where: { $0 === testCase }) { cases.remove(at: index) }
        }
    }
}
