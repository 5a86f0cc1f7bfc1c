import CallSiteFixtures
import Foundation
import Testing

@testable import InjectableKit

/// The memo table's own rules, through its internal interface: one record per key value, a
/// slot for every keypath object of it, and bounded growth.
@Suite struct MemoTableTests {
    @Test func everyObjectOfAKeyReadsWhatTheKeyRemembered() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let here: AnyKeyPath = \Injections.callSitePlain
        let elsewhere: AnyKeyPath = callSitePlainKeyElsewhere()
        #expect(here !== elsewhere, "two modules make two objects of one key")
        #expect(here == elsewhere)
        // An object gets its slot at its second resolution: a keypath with arguments, a new
        // object each time, never takes one.
        table.remember(here, .plainGetter, generation: 5)
        #expect(table.ownEntryWord(for: here, at: 5) == MemoTable.noSlot)
        table.remember(here, .plainGetter, generation: 5)
        #expect(table.ownEntryWord(for: here, at: 5) == Route.plainGetterWord)
        // A second object is given a slot at its first resolution, and then reads the same.
        #expect(table.ownEntryWord(for: elsewhere, at: 5) == MemoTable.noSlot)
        table.remember(elsewhere, .plainGetter, generation: 5)
        table.remember(elsewhere, .plainGetter, generation: 5)
        #expect(table.ownEntryWord(for: elsewhere, at: 5) == Route.plainGetterWord)
        #expect(table.counts.objects == 2)
        #expect(table.counts.keys == 1)
        // Remembering the key again, through either object, updates both slots.
        table.remember(elsewhere, .getter, generation: 6)
        #expect(table.ownEntryWord(for: here, at: 6) == 0)
        #expect(table.ownEntryWord(for: here, at: 5) == MemoTable.noSlot)
    }

    @Test func anOlderResolutionDoesNotOverwriteANewerOne() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let key: AnyKeyPath = \Injections.callSitePlain
        table.remember(key, .plainGetter, generation: 9)
        table.remember(key, .plainGetter, generation: 9)
        table.remember(key, .getter, generation: 8)
        #expect(table.ownEntryWord(for: key, at: 9) == Route.plainGetterWord)
    }

    @Test func objectsOfOneKeyAreBoundedAndTheRestStillResolve() {
        let table = MemoTable(limit: 1_000, keyLimit: 4)
        // A keypath with arguments is a new object, equal to the others, at each evaluation.
        let objects: [AnyKeyPath] = (0..<10).map { _ in \Injections.[account: 3] }
        for object in objects {
            // Twice: a keypath kept and resolved again, as a literal's object is.
            table.remember(object, .plainGetter, generation: 2)
            table.remember(object, .plainGetter, generation: 2)
        }
        #expect(table.counts == (objects: 4, keys: 1))
        #expect(objects.prefix(4).allSatisfy { table.ownEntryWord(for: $0, at: 2) == 1 })
        #expect(objects.dropFirst(4).allSatisfy { table.ownEntryWord(for: $0, at: 2) == .max })
    }

    @Test func anOverrideIsRememberedInTheKeysBoxAtTheCurrentGenerationOnly() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let here: AnyKeyPath = \Injections.callSitePlain
        let elsewhere: AnyKeyPath = callSitePlainKeyElsewhere()
        let first = Override { CallSiteService() }
        table.ownGeneration.storeReleasing(3)
        for key in [here, here, elsewhere, elsewhere] {
            table.remember(
                key, override: first, generation: 3)
        }
        // Both objects of the key name one box, which holds the override.
        let word = table.ownEntryWord(for: here, at: 3)
        #expect(word & Route.overrideFlag != 0)
        #expect(table.ownEntryWord(for: elsewhere, at: 3) == word)
        let box = Unmanaged<OverrideBox>.fromOpaque(
            UnsafeRawPointer(bitPattern: word & ~Route.overrideFlag)!
        ).takeUnretainedValue()
        #expect(box.current === first)
        // A change moves the generation on, then empties the boxes.
        table.ownGeneration.storeReleasing(4)
        #expect(table.forgetOverrides().map(ObjectIdentifier.init) == [ObjectIdentifier(first)])
        #expect(box.current == nil)
        // A resolution that read the older generation finishes after the change: its override
        // is not kept.
        table.remember(
            here, override: first, generation: 3)
        #expect(box.current == nil)
        // One at the current generation is.
        let second = Override { CallSiteService() }
        table.remember(
            here, override: second, generation: 4)
        #expect(box.current === second)
        #expect(table.ownEntryWord(for: elsewhere, at: 4) == word)
    }

    @Test func keypathsResolvedOnceAreNotKept() {
        let table = MemoTable(limit: 100_000, keyLimit: 8)
        for id in 0..<(MemoTable.seenLimit * 2 + 10) {
            let object: AnyKeyPath = \Injections.[account: id]
            table.remember(object, .plainGetter, generation: 2)
        }
        #expect(table.counts == (objects: 0, keys: 0))
        #expect(table.seenCount <= MemoTable.seenLimit)
    }

    @Test func objectsInAllAreBounded() {
        let table = MemoTable(limit: 50, keyLimit: 8)
        let objects: [AnyKeyPath] = (0..<200).map { \Injections.[account: $0] }
        for object in objects {
            // Twice: a keypath kept and resolved again, as a literal's object is.
            table.remember(object, .plainGetter, generation: 2)
            table.remember(object, .plainGetter, generation: 2)
        }
        #expect(table.counts == (objects: 50, keys: 50))
    }

    @Test func slotsSurviveGrowthAndReadersRacingWritersSeeWholeSlots() {
        let table = MemoTable(limit: 10_000, keyLimit: 8)
        let objects = KeyPaths((0..<2_000).map { \Injections.[account: $0] })
        let done = Flag()
        let inconsistent = Counter()
        let readers = DispatchGroup()
        // Readers run while the writer makes slots and the table doubles several times: a
        // slot reads as absent or as exactly what was remembered, never as anything else.
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                while !done.isSet {
                    for object in objects.all.prefix(64) {
                        let word = table.ownEntryWord(for: object, at: 3)
                        if word != .max && word != 1 { inconsistent.increment() }
                    }
                }
            }
        }
        for object in objects.all {
            table.remember(object, .plainGetter, generation: 3)
            table.remember(object, .plainGetter, generation: 3)
        }
        done.set()
        readers.wait()
        #expect(inconsistent.count == 0)
        #expect(objects.all.allSatisfy { table.ownEntryWord(for: $0, at: 3) == 1 })
    }
}

/// Keypaths to share between threads.
private struct KeyPaths: @unchecked Sendable {
    // @unchecked: keypath objects are immutable.
    let all: [AnyKeyPath]
    init(_ all: [AnyKeyPath]) { self.all = all }
}

private final class Flag: Sendable {
    private let value = TestAtomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
