import Testing

@testable import InjectableKit

/// The global table's edits, made on a table of the test's own, without the hook.
@Suite struct ContributionTableTests {
    private func contribution(_ element: KeyPath<Injections, any Sink>) -> Contribution {
        Contribution(element: element, dictionaryKey: nil, site: "ContributionTableTests")
    }

    @Test func aRemovalDropsTheElementsContribution() {
        let table = ContributionTable()
        table.beginRun()
        #expect(
            table.apply(.add(contribution(\.consoleSink)), to: \Injections.sinks, inHook: true)
                == nil)
        #expect(
            table.apply(.add(contribution(\.fileSink)), to: \Injections.sinks, inHook: true) == nil)
        #expect(
            table.apply(
                .removeElement(\Injections.consoleSink), to: \Injections.sinks, inHook: true) == nil
        )
        table.endRun()
        #expect(table.contributions(to: \Injections.sinks).map(\.element) == [\Injections.fileSink])
    }

    @Test func aRemovalOfWhatWasNotContributedIsRefused() {
        let table = ContributionTable()
        table.beginRun()
        let refusal = table.apply(
            .removeElement(\Injections.consoleSink), to: \Injections.sinks, inHook: true)
        #expect(refusal == .notContributed)
    }

    @Test func anEditAfterTheCollectionsResolutionIsRefused() {
        let table = ContributionTable()
        table.beginRun()
        _ = table.apply(.add(contribution(\.consoleSink)), to: \Injections.sinks, inHook: true)
        table.endRun()
        _ = table.contributions(to: \Injections.sinks, resolvedBy: "\\.sinks")
        let refusal = table.apply(
            .removeElement(\Injections.consoleSink), to: \Injections.sinks, inHook: false)
        #expect(refusal == .resolved("\\.sinks"))
    }
}
