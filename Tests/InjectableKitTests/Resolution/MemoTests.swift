import InjectableKit
import Testing

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
    /// A weakly held entry, read as a base class.
    var memoSharedBase: MemoBase {
        memoViewGetterRuns.increment()
        return memoSharedDerived
    }
}

/// The memo table lets a resolution skip a registration's getter. These pin the cases where
/// it must not.
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
    }
}
