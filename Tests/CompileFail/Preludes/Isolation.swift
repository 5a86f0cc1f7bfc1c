// Declarations the isolation and async snippets share (`// prelude: Isolation`).
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
