// expect: main actor-isolated default value in a nonisolated context
// A @MainActor view model is injected only into a type that runs on the main actor.
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

struct Screen {
    @InjectableObject(\.contentViewModel) var viewModel
}
