// expect: call can throw, but it is not marked with 'try'
// An async key whose construction throws must be awaited with try.
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

func open() async -> Database {
    await Injections.container.resolve(\.database).value()
}
