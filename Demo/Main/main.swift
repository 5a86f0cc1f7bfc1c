import DemoKit
import Foundation

let usage = """
    Usage: Demo [--mocks] [--help]

    A guided tour of InjectableKit: a small banking app's screens on live services and on
    mocks, and the lifetime of each scope.

      --mocks   start with the mock services registered
      --help    show this help
    """

var mocks = false
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--mocks":
        mocks = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(
            Data("Demo: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(64)  // EX_USAGE
    }
}

Tour.run(mocks: mocks) { print($0) }
