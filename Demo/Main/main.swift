import DemoKit
import Foundation
import InjectableKit

// The app's module-level wiring: runs before the container's first use.
extension Injections: AutoRegistering {
    /// Makes every feature module's contributions to the collection keys.
    public static func registerAllServices() {
        contributeDemoFeatures()
    }
}

let usage = """
    Usage: Demo [--mocks] [--graph[=dot] [--all]] [--help]

    A guided tour of InjectableKit: a small banking app's screens on live services and on
    mocks, and the lifetime of each scope.

      --mocks       start on the mock services (the registrations pick them)
      --graph       print the demo's dependency graph (Mermaid) instead of the tour
      --graph=dot   print that graph for Graphviz
      --all         with --graph: draw every key the demo declares, not only the screens'
      --help        show this help
    """

var mocks = false
var graph: Tour.GraphFormat?
var everyKey = false
for argument in CommandLine.arguments.dropFirst() {
    // The tour runs these in a child process, to show what stops a program.
    if let step = Tour.ChildStep(rawValue: argument) { step.run() }
    switch argument {
    case "--mocks":
        mocks = true
    case "--graph":
        graph = .mermaid
    case "--graph=dot":
        graph = .dot
    case "--all":
        everyKey = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(
            Data("Demo: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(64)  // EX_USAGE
    }
}

// The tour's screens use `@InjectableObject` and `changes(of:)`, which need macOS 15 on a Mac.
if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) {
    if let graph {
        // `verifyAll()`: written by the InjectionKeys plugin, from every key DemoKit declares.
        print(Tour.graph(graph, everyKey: everyKey ? { _ = Injections.verifyAll() } : nil))
    } else {
        await Tour.run(mocks: mocks) { print($0) }
    }
} else {
    FileHandle.standardError.write(Data("Demo: the tour needs macOS 15 or later\n".utf8))
    exit(69)  // EX_UNAVAILABLE
}
