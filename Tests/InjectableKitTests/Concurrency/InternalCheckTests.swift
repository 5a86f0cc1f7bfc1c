import Testing

@testable import InjectableKit

/// The core's invariant checks and the written lock order are enforced in internal-checks
/// builds (CI's step of that name): each check is shown here to stop the process on the
/// violation it is for, planted in a child process, so that none is a check that cannot fail.
/// Elsewhere the checks compile to nothing.
@Suite struct InternalCheckTests {
    #if INJECTABLEKIT_INTERNAL_CHECKS
        @Test func aLockTakenAgainstTheWrittenOrderStops() async {
            await #expect(processExitsWith: .failure) {
                let entry = Lock(rank: .entry)
                let storage = Lock(rank: .scopeStorage)
                entry.withLock { storage.withLock {} }
            }
        }

        @Test func aConditionTakenAgainstTheWrittenOrderStops() async {
            await #expect(processExitsWith: .failure) {
                let entry = Lock(rank: .entry)
                entry.withLock { ThreadState.current.parking.locked(rank: .parking) {} }
            }
        }

        @Test func locksTakenInTheWrittenOrderPass() {
            let registry = Lock(rank: .overrideRegistry)
            let inner = Lock(rank: .overrideRegistry)
            let storage = Lock(rank: .scopeStorage)
            let entry = Lock(rank: .entry)
            let parking = ThreadState.current.parking
            registry.withLock {
                inner.withLock {
                    storage.withLock { parking.locked(rank: .parking) { entry.withLock {} } }
                }
            }
            #expect(ThreadState.current.heldLockRanks.isEmpty)
        }

        @Test func aScopeCountingMoreForgettableEntriesThanItHoldsStops() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let storage = ScopeStorage()
                storage.forgettableEntries = 1
                storage.checkInvariants()
            }
            #expect(stopped(result, with: "the count of forgettable entries fits the entries"))
        }

        @Test func anEntryHoldingAnInstanceBuiltBeforeItsLastDropStops() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let entry = Entry(
                    key: EntryKey(
                        site: Site(#fileID, #function, #line, #column),
                        type: ObjectIdentifier(Int.self)),
                    owner: nil, holdsWeakly: false, timeToLive: nil)
                let slot = UnsafeMutablePointer<Int>.allocate(capacity: 1)
                _ = entry.obtain({ 1 }, on: .current, into: slot)
                // As if the instance were stored from a build that a drop overtook.
                entry.lock.withLock { entry.storedEpoch = entry.epoch &+ 1 }
                entry.checkInvariants()
            }
            #expect(stopped(result, with: "an entry holds an instance built before its last drop"))
        }

        @Test func aDependencyEdgeRecordedOnOneSideOnlyStops() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let index = DependencyIndex()
                let record = DependencyIndex.Sources(entry: nil, serial: 7)
                record.sources = [KeyOrType(registry: 1, key: \Injections.memoryCached): 1]
                index.sources[7] = record
                index.checkInvariants(of: 7)
            }
            #expect(stopped(result, with: "a key edge in one side only"))
        }

        @Test func aDependencyEdgeThatNoResolutionNeedsStops() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let index = DependencyIndex()
                let key = KeyOrType(registry: 1, key: \Injections.memoryCached)
                let record = DependencyIndex.Sources(entry: nil, serial: 7)
                record.sources = [key: 0]
                index.sources[7] = record
                index.bySource[key] = [7]
                index.checkInvariants(of: 7)
            }
            #expect(stopped(result, with: "an edge no resolution needs"))
        }

        @Test func aMemoSlotThatDisagreesWithItsKeyRecordStops() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardErrorContent]
            ) {
                let table = MemoTable(limit: 8, keyLimit: 4)
                let key: AnyKeyPath = \Injections.memoryCached
                // The second resolution of a keypath object gives it a slot.
                table.remember(key, .plainGetter, generation: 1)
                table.remember(key, .plainGetter, generation: 1)
                let record = table.lock.withLock { table.records[KeyOrType(key: key)] }
                record?.entryWord = Route.getter.word
                if let record { table.lock.withLock { table.checkInvariants(record) } }
            }
            #expect(stopped(result, with: "every slot of a key says what its record says"))
        }
    #endif
}

#if INJECTABLEKIT_INTERNAL_CHECKS
    /// Whether the child process stopped with `message` on its standard error.
    private func stopped(_ result: ExitTest.Result?, with message: String) -> Bool {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).contains(message)
    }
#endif
