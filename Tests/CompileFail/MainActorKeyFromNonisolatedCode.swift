// expect: cannot form key path to main actor-isolated property
// A @MainActor key cannot be named, so not resolved, from nonisolated code.
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

func load() -> ContentViewModel {
    Injections.container.resolve(\.contentViewModel)
}
