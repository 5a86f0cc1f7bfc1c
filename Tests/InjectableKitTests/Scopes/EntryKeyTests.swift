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
    }
}
