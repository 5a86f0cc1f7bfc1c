import CallSiteFixtures
import Foundation
import TestSupport
import Testing

@testable import InjectableKit

protocol Named: Sendable {
    var name: String { get }
}

struct PlainName: Named {
    let name = "plain"
}

struct PrefixedName: Named {
    let base: any Named
    var name: String { "prefixed " + base.name }
}

final class MemoLeaf: Sendable {}
/// Counts how often `memoOptionalLeaf`'s getter runs.
let memoGetterRuns = Counter()

protocol MemoShape: AnyObject, Sendable {}
// @unchecked: no stored state; not final, so that a key can read it as its subclass's base.
class MemoBase: @unchecked Sendable {}
final class MemoDerived: MemoBase, MemoShape, @unchecked Sendable {}  // no stored state
/// Counts how often the getters of keys that read another key's entry as another type run.
let memoViewGetterRuns = Counter()

extension Injections {
    /// A class key whose helper caches an optional: served from the entry's view.
    var memoOptionalLeaf: MemoLeaf {
        memoGetterRuns.increment()
        return cached(MemoLeaf() as MemoLeaf?)!
    }
    var bumpedCount: Int { cached(5) + 10 }
    var prefixedName: any Named { PrefixedName(base: cached(PlainName())) }
    var accountPair: (Account, Account) { (self[account: 11], self[account: 12]) }

    var memoCachedDerived: MemoDerived { cached(MemoDerived()) }
    /// The same entry as `memoCachedDerived`, read as a base class (a view of a class type).
    var memoCachedBase: MemoBase {
        memoViewGetterRuns.increment()
        return memoCachedDerived
    }
    var memoShapeDerived: MemoDerived { cached(MemoDerived()) }
    /// The same entry as `memoShapeDerived`, read as an existential (a view of another layout).
    /// (An entry keeps one view: another key of another type would run its getter each time.)
    var memoCachedShape: any MemoShape {
        memoViewGetterRuns.increment()
        return memoShapeDerived
    }
    var memoSharedDerived: MemoDerived { shared(MemoDerived()) }
    /// A helper in a function with parameters, which any key may call: one entry per key.
    func memoOwnedLeaf(_ count: Int) -> MemoLeaf { cached(MemoLeaf()) }
    var memoOwnerKeyed: MemoLeaf { memoOwnedLeaf(1) }
    /// A weakly held entry, read as a base class.
    var memoSharedBase: MemoBase {
        memoViewGetterRuns.increment()
        return memoSharedDerived
    }
}

/// The memo table lets a resolution skip a registration's getter. These pin the cases where
/// it must not, and that the call sites of one key in several modules share what it remembered.
extension GlobalContainerTests {
    @Suite struct MemoTests {
        @Test func aValueBuiltFromACachedValueIsBuiltEveryTime() {
            #expect(Injections.container.resolve(\.bumpedCount) == 15)
            #expect(Injections.container.resolve(\.bumpedCount) == 15)
        }

        @Test func anExistentialWrappingACachedValueIsBuiltEveryTime() {
            #expect(Injections.container.resolve(\.prefixedName).name == "prefixed plain")
            #expect(Injections.container.resolve(\.prefixedName).name == "prefixed plain")
        }

        @Test func aClassKeyWhoseHelperCachedAnOptionalIsServedFromTheCache() {
            let first = Injections.container.resolve(\.memoOptionalLeaf)
            // A call site takes the fast path from its second resolution.
            #expect(Injections.container.resolve(\.memoOptionalLeaf) === first)
            let runs = memoGetterRuns.count
            for _ in 0..<5 {
                #expect(Injections.container.resolve(\.memoOptionalLeaf) === first)
            }
            #expect(memoGetterRuns.count == runs)
        }

        @Test func keysReadingACachedEntryAsAnotherTypeAreServedItsInstance() {
            let instance = Injections.container.resolve(\.memoCachedDerived)
            let other = Injections.container.resolve(\.memoShapeDerived)
            for _ in 0..<2 {  // a call site takes the fast path from its second resolution
                #expect(Injections.container.resolve(\.memoCachedBase) === instance)
                #expect(Injections.container.resolve(\.memoCachedShape) === other)
            }
            let runs = memoViewGetterRuns.count
            for _ in 0..<3 {
                #expect(Injections.container.resolve(\.memoCachedBase) === instance)
                #expect(Injections.container.resolve(\.memoCachedShape) === other)
                #expect(Injections.container.resolve(\.memoCachedDerived) === instance)
            }
            #expect(memoViewGetterRuns.count == runs)
        }

        @Test func aKeyReadingASharedEntryAsItsBaseClassIsServedItWhileItIsHeld() {
            var held: MemoDerived? = Injections.container.resolve(\.memoSharedDerived)
            for _ in 0..<2 {  // a call site takes the fast path from its second resolution
                #expect(Injections.container.resolve(\.memoSharedBase) === held)
            }
            let runs = memoViewGetterRuns.count
            #expect(Injections.container.resolve(\.memoSharedBase) === held)
            #expect(memoViewGetterRuns.count == runs)
            held = nil
            // Released: the key's next resolution runs its getter, which builds another.
            let next = Injections.container.resolve(\.memoSharedBase)
            #expect(memoViewGetterRuns.count == runs + 1)
            withExtendedLifetime(next) {}
        }

        @Test func aSubscriptUsedDirectlyInAnotherRegistrationKeepsItsArguments() {
            for _ in 0..<2 {
                let pair = Injections.container.resolve(\.accountPair)
                #expect(pair.0.id == 11)
                #expect(pair.1.id == 12)
            }
        }

        // Call sites of one key in several modules all take the fast path after their first
        // resolution.
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

        // A key whose helper is in a function any key may call keeps its entry across a reset
        // of the key or of its scope (emptied, not replaced): the memo keeps every entry it
        // names, so the call sites go on reading that one.
        @Test(arguments: ["the key", "its scope"])
        func resettingAKeyWhoseHelperIsSharedKeepsItsCallSitesOnItsEntry(reset: String) {
            let first = Injections.container.resolve(\.memoOwnerKeyed)
            #expect(Injections.container.resolve(\.memoOwnerKeyed) === first)
            if reset == "the key" {
                Injections.container.reset(\.memoOwnerKeyed)
            } else {
                Injections.Scope.cached.reset()
            }
            let second = Injections.container.resolve(\.memoOwnerKeyed)
            #expect(second !== first)
            #expect(Injections.container.resolve(\.memoOwnerKeyed) === second)
            let generation = UInt64(MemoTable.generation.loadAcquiring())
            let word = MemoTable.entryWord(for: \Injections.memoOwnerKeyed, at: generation)
            guard case .entry(let entry, _) = Route(word: word) else {
                Issue.record("the key's call site reads no entry")
                return
            }
            #expect(entry.takeUnretainedValue().isHolding(second))
        }

        // Resetting a key that has no override (a `reset(\.[account: 42])` at logout) drops
        // its instances, and leaves every other call site on the fast path.
        @Test func resettingAKeyWithoutAnOverrideKeepsWhatOtherCallSitesRemembered() {
            let instance = Injections.container.resolve(\.callSiteService)
            #expect(Injections.container.resolve(\.callSiteService) === instance)
            let generation = UInt64(MemoTable.generation.loadAcquiring())
            Injections.container.reset(\.bumpedCount)
            #expect(UInt64(MemoTable.generation.loadAcquiring()) == generation)
            #expect(
                MemoTable.entryWord(for: \Injections.callSiteService, at: generation)
                    > Route.plainGetterWord)
            Injections.container.register(\.bumpedCount) { 1 }
            #expect(UInt64(MemoTable.generation.loadAcquiring()) != generation)
            Injections.container.reset(\.bumpedCount)
        }
    }
}

/// The memo table's own rules, through its internal interface: one record per key value, a
/// slot for every keypath object of it, and bounded growth. Serialized: each test's table uses
/// the one pair of words the test target keeps for tables of their own.
@Suite(.serialized) struct MemoTableTests {
    @Test func everyObjectOfAKeyReadsWhatTheKeyRemembered() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let here: AnyKeyPath = \Injections.callSitePlain
        let elsewhere: AnyKeyPath = callSitePlainKeyElsewhere()
        #expect(here !== elsewhere, "two modules make two objects of one key")
        #expect(here == elsewhere)
        // An object gets its slot at its second resolution: a keypath with arguments, a new
        // object each time, never takes one.
        table.remember(here, .plainGetter, generation: 5)
        #expect(table.entryWord(for: here, at: 5) == MemoTable.noSlot)
        table.remember(here, .plainGetter, generation: 5)
        #expect(table.entryWord(for: here, at: 5) == Route.plainGetterWord)
        // A second object is given a slot at its first resolution, and then reads the same.
        #expect(table.entryWord(for: elsewhere, at: 5) == MemoTable.noSlot)
        table.remember(elsewhere, .plainGetter, generation: 5)
        table.remember(elsewhere, .plainGetter, generation: 5)
        #expect(table.entryWord(for: elsewhere, at: 5) == Route.plainGetterWord)
        #expect(table.counts.objects == 2)
        #expect(table.counts.keys == 1)
        // Remembering the key again, through either object, updates both slots.
        table.remember(elsewhere, .getter, generation: 6)
        #expect(table.entryWord(for: here, at: 6) == 0)
        #expect(table.entryWord(for: here, at: 5) == MemoTable.noSlot)
    }

    @Test func anOlderResolutionDoesNotOverwriteANewerOne() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let key: AnyKeyPath = \Injections.callSitePlain
        table.remember(key, .plainGetter, generation: 9)
        table.remember(key, .plainGetter, generation: 9)
        table.remember(key, .getter, generation: 8)
        #expect(table.entryWord(for: key, at: 9) == Route.plainGetterWord)
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
        #expect(objects.prefix(4).allSatisfy { table.entryWord(for: $0, at: 2) == 1 })
        #expect(objects.dropFirst(4).allSatisfy { table.entryWord(for: $0, at: 2) == .max })
    }

    @Test func anOverrideIsRememberedInTheKeysBoxAtTheCurrentGenerationOnly() {
        let table = MemoTable(limit: 100, keyLimit: 8)
        let here: AnyKeyPath = \Injections.callSitePlain
        let elsewhere: AnyKeyPath = callSitePlainKeyElsewhere()
        let first = Override { CallSiteService() }
        table.words.generation.storeReleasing(3)
        for key in [here, here, elsewhere, elsewhere] {
            table.remember(
                key, override: first, generation: 3)
        }
        // Both objects of the key name one box, which holds the override.
        let word = table.entryWord(for: here, at: 3)
        #expect(word & Route.overrideFlag != 0)
        #expect(table.entryWord(for: elsewhere, at: 3) == word)
        let box = Unmanaged<OverrideBox>.fromOpaque(
            UnsafeRawPointer(bitPattern: word & ~Route.overrideFlag)!
        ).takeUnretainedValue()
        #expect(box.current === first)
        // A change moves the generation on, then empties the boxes.
        table.words.generation.storeReleasing(4)
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
        #expect(table.entryWord(for: elsewhere, at: 4) == word)
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
                        let word = table.entryWord(for: object, at: 3)
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
        #expect(objects.all.allSatisfy { table.entryWord(for: $0, at: 3) == 1 })
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
