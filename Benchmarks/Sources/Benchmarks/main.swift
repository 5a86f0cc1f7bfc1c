// Runs every scenario for every library and prints one table (or CSV) of median nanoseconds
// per operation. See README.md.
//
//     swift run -c release --package-path Benchmarks Benchmarks [--csv] [--quick]

let options = Options(Array(CommandLine.arguments.dropFirst()))
let harness = Harness(settings: options.quick ? .quick : .full)

let suites: [(Library, any Suite)] = [
    (.direct, DirectScenarios()),
    (.injectableKit, InjectableKitScenarios()),
    (.swinject, SwinjectScenarios()),
    (.swiftDependencies, DependenciesScenarios()),
]
var results = Results()
for scenario in options.scenarios {
    for (library, suite) in suites where options.libraries.contains(library) {
        results[scenario, library] = suite.measure(scenario, with: harness)
    }
}

if options.csv {
    print(results.csv())
} else {
    #if DEBUG
        print("WARNING: a debug build; measure with `-c release`.")
    #endif
    let run = options.quick ? "quick run: rough figures" : "\(harness.settings.samples) samples"
    print(
        """
        Median ns per operation (\(run)). X / direct: that library's time over direct \
        construction's. IK speed-up vs P: P's time over InjectableKit's (above 1: InjectableKit \
        is faster). threads-2: wall time per operation per thread, two threads at once.

        """)
    print(results.table())
}
