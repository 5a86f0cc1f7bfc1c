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

extension Injections {
    /// A class key whose helper caches an optional: served from the entry's view.
    var memoOptionalLeaf: MemoLeaf {
        memoGetterRuns.increment()
        return cached(MemoLeaf() as MemoLeaf?)!
    }
    var bumpedCount: Int { cached(5) + 10 }
    var prefixedName: any Named { PrefixedName(base: cached(PlainName())) }
    var accountPair: (Account, Account) { (self[account: 11], self[account: 12]) }
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
            let runs = memoGetterRuns.count
            for _ in 0..<5 {
                #expect(Injections.container.resolve(\.memoOptionalLeaf) === first)
            }
            #expect(memoGetterRuns.count == runs)
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
