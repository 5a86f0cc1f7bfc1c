import XCTest

/// A probe case's run that keeps the failures the probe records instead of passing them to
/// XCTest's observers, which print each as an `error:` line: the test that runs the probe reads
/// them, and a passing run prints none.
final class QuietRun: XCTestCaseRun {
    private(set) var failures: [String] = []
    /// Where each failure was recorded, as `file:line`.
    private(set) var locations: [String] = []

    // `totalFailureCount`, and `InjectableTestCase`'s check of it, count the kept failures.
    override var failureCount: Int { failures.count }

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            failures.append(issue.compactDescription)
            let location = issue.sourceCodeContext.location
            locations.append("\(location?.fileURL.path ?? ""):\(location?.lineNumber ?? 0)")
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String?, atLine lineNumber: Int,
            expected: Bool
        ) {
            failures.append(description)
            locations.append("\(filePath ?? ""):\(lineNumber)")
        }
    #endif
}
