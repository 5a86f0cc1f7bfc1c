import Testing

@testable import InjectableKit

/// The written lock order is enforced in internal-checks builds (CI's step of that name): a
/// lock taken against it stops the process. Elsewhere ranks are not kept.
@Suite struct LockRankTests {
    #if INJECTABLEKIT_INTERNAL_CHECKS
        @Test func aLockTakenAgainstTheWrittenOrderStops() async {
            await #expect(processExitsWith: .failure) {
                let entry = Lock(rank: .entry)
                let storage = Lock(rank: .scopeStorage)
                entry.withLock { storage.withLock {} }
            }
        }

        @Test func locksTakenInTheWrittenOrderPass() {
            let registry = Lock(rank: .overrideRegistry)
            let inner = Lock(rank: .overrideRegistry)
            let storage = Lock(rank: .scopeStorage)
            let entry = Lock(rank: .entry)
            registry.withLock { inner.withLock { storage.withLock { entry.withLock {} } } }
            #expect(ThreadState.current.heldLockRanks.isEmpty)
        }
    #endif
}
