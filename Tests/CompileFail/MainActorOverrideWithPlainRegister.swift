// expect: call to main actor-isolated initializer
// An override that builds a @MainActor type needs registerOnMainActor.
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

@MainActor func usePreview() {
    Injections.container.register(\.contentViewModel) { ContentViewModel() }
}
