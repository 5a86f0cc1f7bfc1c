// expect: cannot convert return expression of type 'Database' to return type 'String'
// An async key's value has the key's type.
import InjectableKit
import Observation

@MainActor @Observable final class ContentViewModel {
    var title = ""
    init() {}
}
struct Database: Sendable {
    static func open() async throws -> Database { Database() }
}
extension Injections {
    @MainActor var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
    var database: AsyncInjection<Database, any Error> {
        cached(AsyncInjection { try await Database.open() })
    }
}

func open() async throws -> String {
    try await Injections.container.resolve(\.database).value()
}
