import Foundation

/// The command line: `Benchmarks [--csv] [--quick | --smoke] [--only=...] [--library=...]`.
struct Options {
    static let usage = """
        usage: Benchmarks [--csv] [--quick | --smoke] [--only=SCENARIO,...] [--library=NAME,...]
          --csv            print scenario,library,median_ns instead of the table
          --quick, --smoke run each scenario for a few milliseconds (checks that it runs)
          --only=NAMES     run only these scenarios (CSV names, comma-separated), for profiling;
                           a family's name selects all its rows (call-sites: call-sites (...))
          --library=NAMES  run only these libraries (CSV names, comma-separated), for profiling
        """

    var csv = false
    var quick = false
    var scenarios = Scenario.runOrder
    var libraries = Library.allCases

    /// Parses `arguments` (without the program's name); prints the problem and exits on error.
    init(_ arguments: [String]) {
        for argument in arguments {
            switch argument {
            case "--csv": csv = true
            case "--quick", "--smoke": quick = true
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            case _ where argument.hasPrefix("--only="):
                scenarios = Self.selection(argument, of: Scenario.runOrder)
            case _ where argument.hasPrefix("--library="):
                libraries = Self.selection(argument, of: Library.allCases)
            default:
                Self.fail("unknown argument: \(argument)")
            }
        }
    }

    /// The values `--name=a,b` names, in `known`'s order. A family's name, the part of a value's
    /// name before ` (`, names every value of the family: `call-sites` names
    /// `call-sites (file A)` and the other `call-sites (...)` rows.
    private static func selection<Value: RawRepresentable<String>>(
        _ argument: String, of known: [Value]
    ) -> [Value] {
        let names = argument.split(separator: "=", maxSplits: 1).last!.split(separator: ",")
            .map(String.init)
        func matches(_ value: Value, _ name: String) -> Bool {
            value.rawValue == name || value.rawValue.hasPrefix(name + " (")
        }
        let unknown = names.filter { name in !known.contains { matches($0, name) } }
        if !unknown.isEmpty {
            fail(
                "unknown value(s) in \(argument): \(unknown.joined(separator: " ")); known: "
                    + known.map(\.rawValue).joined(separator: " "))
        }
        return known.filter { value in names.contains { matches(value, $0) } }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
