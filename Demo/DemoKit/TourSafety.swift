import Foundation
import InjectableKit

// The tour's steps on what keeps an app's wiring safe: tests isolated from each other, the
// trace, `verify`, a cycle's message and `seal()`.
extension Tour {
    static func parallelTests(_ guide: inout Guide) async {
        guide.section(
            "Two tests at once, each in its own layer",
            "withOverrides { $0.register(\\.api) { ScriptedBankAPI(customer: name) } }, in two tasks."
        )
        let seen = await withTaskGroup(of: (String, String).self) { group in
            for customer in ["Alice", "Bob"] {
                group.addTask {
                    await Injections.withOverrides {
                        $0.register(\.api) { ScriptedBankAPI(customer: customer) }
                    } operation: {
                        await Task.yield()
                        return (
                            customer, Injections.container.resolve(\.profileService).profile().name
                        )
                    }
                }
            }
            var seen: [String: String] = [:]
            for await (test, name) in group { seen[test] = name }
            return seen
        }
        for test in seen.keys.sorted() {
            guide.say("The test that registered \(test) sees \(seen[test] ?? "nothing")")
        }
        let outside = Injections.container.resolve(\.profileService).profile().name
        guide.say("Outside both layers: \(outside)")
        guide.say(
            "A test without the .injections trait that calls register(\\.api) { MockBankAPI() }, "
                + "in a child test process, fails:")
        guide.show(leakingTestReport())
    }

    /// The environment variable that enables the leaking test in `DemoTests`.
    nonisolated public static let leakingTestVariable = "INJECTABLEKIT_TOUR_LEAKING_TEST"

    /// Runs `DemoTests`' leaking test in a child test process, and returns what it reported.
    private static func leakingTestReport() -> [String] {
        // `swift run Demo` builds no tests: on a fresh clone, say how to see the report.
        guard let tests = besideThisProgram("InjectableKitPackageTests.xctest") else {
            return [
                "(To see that report: `swift build --build-tests`, then `swift run Demo` again.)"
            ]
        }
        let (output, status) = runChild(
            tests,
            arguments: [
                "--testing-library", "swift-testing", "--filter",
                "tourLeakingTestRegistersOutsideItsLayer",
            ],
            environment: [leakingTestVariable: "1", "NO_COLOR": "1"], reading: .both)
        return [
            firstMessage(in: output) ?? "(the test reported no InjectableKit message)",
            status != 0
                ? "That test failed; the run's other tests go on and report."
                : "The test did NOT fail.",
        ]
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    static func traceScreen(_ guide: inout Guide) {
        guide.section(
            "The trace of one screen",
            "Injections.container.trace { print($0) } logs each resolution, innermost first.")
        let events = TraceLines()
        Injections.container.trace { event in events.add(event.description) }
        _ = AccountsScreen().render()
        Injections.container.trace(nil)
        guide.show(events.all)
    }

    static func verifyGraph(_ guide: inout Guide) {
        guide.section(
            "verify: every problem at once",
            "verify { $0.resolve(\\.accountsService); $0.resolve(\\.plantedLedger); "
                + "$0.resolveNonNil(\\.currentUser) }")
        let report = Injections.verify { keys in
            keys.resolve(\.accountsService)
            keys.resolve(\.plantedLedger)
            keys.resolveNonNil(\.currentUser)
        }
        guide.show(report.description.split(separator: "\n").map(String.init))
        guide.show([
            "Every key without a list: Injections.verifyAll(), written by the InjectionKeys plugin "
                + "(Tests/DemoTests/WholeGraphTests.swift; `Demo --graph --all` draws them all)."
        ])
    }

    static func stoppingSteps(_ guide: inout Guide) {
        guide.section(
            "A cycle stops the process, naming its chain",
            "resolve(\\.plantedLedger), in a child process (Demo --planted-cycle), so the tour goes on."
        )
        guide.show(childMessage(.cycle))
        guide.section(
            "seal(): nothing can be swapped after it",
            "seal(), then register(\\.api) { MockBankAPI() }, in a child process (Demo --seal-then-swap)."
        )
        guide.show(childMessage(.seal))
    }

    /// Runs `step` in a child Demo process, and returns the message it stopped with.
    private static func childMessage(_ step: ChildStep) -> [String] {
        guard let demo = demoExecutable() else {
            return ["(skipped: no Demo executable beside this program)"]
        }
        let (text, status) = runChild(
            demo, arguments: [step.rawValue], environment: [:], reading: .errors)
        return [
            firstMessage(in: text) ?? "(the child printed no InjectableKit message)",
            status != 0
                ? "The child process stopped there; the tour goes on."
                : "The child process did NOT stop.",
        ]
    }

    /// The first InjectableKit message in a child's output, from its `InjectableKit:` on.
    private static func firstMessage(in output: String) -> String? {
        output.split(separator: "\n").lazy.compactMap { line in
            line.range(of: "InjectableKit:").map { String(line[$0.lowerBound...]) }
        }.first
    }

    private enum Stream { case errors, both }

    /// Runs `program` and returns what it wrote to `reading`, and its exit status.
    private static func runChild(
        _ program: URL, arguments: [String], environment: [String: String], reading: Stream
    ) -> (String, Int32) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        // No backtrace: the message is all the tour shows, and under a sanitizer the backtracer
        // can outlive the child, holding its standard error open.
        process.environment = ProcessInfo.processInfo.environment.merging(
            environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { _, new in new },
            uniquingKeysWith: { _, new in new })
        let pipe = Pipe()
        process.standardOutput = reading == .both ? pipe : FileHandle.nullDevice
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return ("(skipped: \(program.lastPathComponent) did not start: \(error))", 0)
        }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus)
    }

    /// The Demo executable: this program, or, when the tour runs under tests, the one built
    /// beside their runner (on Darwin the runner is inside a bundle, a few folders down).
    ///
    /// - Returns: Its location, or `nil` if it was not built.
    nonisolated public static func demoExecutable() -> URL? {
        besideThisProgram("Demo")
    }

    /// The executable file `name` in this program's folder or one of the four above it.
    nonisolated private static func besideThisProgram(_ name: String) -> URL? {
        guard var folder = Bundle.main.executableURL?.deletingLastPathComponent() else {
            return nil
        }
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder),
                !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}

/// The trace's lines, collected from the thread that resolves.
private final class TraceLines: Sendable {
    private let lines = Locked<[String]>([])

    func add(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var all: [String] {
        lines.withLock { $0 }
    }
}
