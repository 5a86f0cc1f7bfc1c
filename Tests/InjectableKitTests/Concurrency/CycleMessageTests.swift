import InjectableKit
import Testing

/// A cycle resolved from a file other than its registrations' (`CycleTests.swift`): the
/// keypath objects here differ from those the getters use, yet the message names each key
/// once, in the order of the chain. Exit tests, since a cycle stops the process.
@Suite struct CycleMessageTests {
    @Test func aCycleResolvedFromAnotherFileNamesEachKeyOnce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            _ = Injections.container.resolve(\.cycleSession)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(#"dependency cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#))
        #expect(!message.contains(#"\.cycleSession -> \.cycleSession"#))
    }

    @Test func verifyReportsTheCycleAsTheStopDoes() {
        let report = Injections.verify { $0.resolve(\.cycleSession) }
        let messages = report.problems.map(\.description)
        #expect(
            messages.contains {
                $0.contains(#"dependency cycle: \.cycleSession -> \.cycleAPI -> \.cycleSession"#)
                    && !$0.contains(#"\.cycleSession -> \.cycleSession"#)
            }, "\(messages)")
    }
}
