import DemoKit
import InjectableKit
import Testing

/// `Injections.verifyAll()`, which the InjectionKeys plugin adds to this target, checks every
/// key DemoKit declares, with no list to keep up to date.
@Suite struct WholeGraphTests {
    @MainActor
    @Test func everyDemoKeyIsCheckedAndOnlyThePlantedCycleIsFound() {
        // In a layer of its own: the tour's other tests run in other processes, and this
        // registers nothing globally.
        let report = Injections.withOverrides { _ in
        } operation: {
            Injections.verifyAll()
        }
        // DemoKit's 16 keys; its subscript needs an argument and is left out.
        #expect(report.description.hasPrefix("InjectableKit verified 16 keys: 2 problems"))
        #expect(report.problems.map(\.kind) == [.cycle, .cycle], "\(report)")
        #expect(
            report.problems.map { String($0.description.prefix { $0 != ":" }) } == [
                #"\.plantedLedger"#, #"\.plantedAudit"#,
            ])
    }
}
