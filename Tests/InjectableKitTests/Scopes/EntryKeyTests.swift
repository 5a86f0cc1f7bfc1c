import Testing

@testable import InjectableKit

/// A scope finds each registration's entry by its key's hash: registrations that hash alike
/// make every first resolution among them compare them all.
struct EntryKeyTests {
    @Test func registrationsAtOneLineAndColumnOfFilesNamedAlikeHashApart() {
        // As an app's keys spread one to a file: `var feature12: Service { cached(...) }` at
        // the same place of `Feature12.swift` and `Feature13.swift`.
        let type = ObjectIdentifier(Int.self)
        let first = EntryKey(site: Site("App/Feature12.swift", "feature12", 3, 32), type: type)
        let second = EntryKey(site: Site("App/Feature13.swift", "feature13", 3, 32), type: type)
        #expect(first != second)
        #expect(first.hashValue != second.hashValue)
        // What a scope's table probes with, for any table seed.
        for seed in [0, 1, 0x5EED] {
            #expect(first._rawHashValue(seed: seed) != second._rawHashValue(seed: seed))
        }
    }

    @Test func keysOfOneHelperForDifferentArgumentsHashApart() {
        // `subscript(account:) -> Service { cached(...) }` for two argument values.
        let site = Site("App/Accounts.swift", "subscript(account:)", 7, 9)
        let type = ObjectIdentifier(Int.self)
        let first = EntryKey(site: site, type: type, registration: .argument(\Injections.[tk: 1]))
        let second = EntryKey(site: site, type: type, registration: .argument(\Injections.[tk: 2]))
        #expect(first != second)
        #expect(first._rawHashValue(seed: 0) != second._rawHashValue(seed: 0))
    }

    @Test func keysThatAreEqualHashAlikeInEveryTable() {
        let site = Site("App/Accounts.swift", "subscript(account:)", 7, 9)
        let type = ObjectIdentifier(Int.self)
        let first = EntryKey(site: site, type: type, registration: .argument(\Injections.[tk: 1]))
        let second = EntryKey(site: site, type: type, registration: .argument(\Injections.[tk: 1]))
        #expect(first == second)
        for seed in [0, 1, 0x5EED] {
            #expect(first._rawHashValue(seed: seed) == second._rawHashValue(seed: seed))
        }
        let key = KeyOrType(registry: 3, key: \Injections.[tk: 1])
        #expect(
            key._rawHashValue(seed: 9)
                == KeyOrType(registry: 3, key: \Injections.[tk: 1])._rawHashValue(seed: 9))
        #expect(
            key._rawHashValue(seed: 9)
                != KeyOrType(registry: 4, key: \Injections.[tk: 1])._rawHashValue(seed: 9))
    }
}

extension Injections {
    fileprivate subscript(tk value: Int) -> Int { value }
}
