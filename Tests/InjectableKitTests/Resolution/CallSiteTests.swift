import CallSiteFixtures
import Testing

@testable import InjectableKit

/// Call sites of one key in several modules all take the fast path after their first
/// resolution.
extension GlobalContainerTests {
    @Suite struct CallSiteTests {
        @Test func aKeyResolvedFromAnotherFileTakesTheCommonPathThere() {
            // Each call site's object gets its slot at its second resolution.
            let instance = Injections.container.resolve(\.callSiteService)
            #expect(Injections.container.resolve(\.callSiteService) === instance)
            #expect(resolveCallSiteServiceElsewhere() === instance)
            #expect(resolveCallSiteServiceElsewhere() === instance)
            let generation = UInt64(MemoTable.generation.loadAcquiring())
            let here = MemoTable.entryWord(for: \Injections.callSiteService, at: generation)
            let elsewhere = MemoTable.entryWord(for: callSiteServiceKeyElsewhere(), at: generation)
            #expect(here != MemoTable.noSlot && here > Route.plainGetterWord)
            #expect(elsewhere == here, "both call sites read the one entry")
        }
    }
}
