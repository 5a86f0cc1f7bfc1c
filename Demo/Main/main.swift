import DemoKit
import Foundation

let usage = """
    Usage: Demo [--mocks] [--graph] [--help]

    A guided tour of InjectableKit: a small banking app's screens on live services and on
    mocks, and the lifetime of each scope.

      --mocks   start on the mock services (the registrations pick them)
      --graph   print the demo's dependency graph (Mermaid) instead of the tour
      --help    show this help
    """

var mocks = false
var graph = false
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--mocks":
        mocks = true
    case "--graph":
        graph = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(
            Data("Demo: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(64)  // EX_USAGE
    }
}

if graph {
    print(Tour.graph())
} else {
    await Tour.run(mocks: mocks) { print($0) }
}
