// expect: does not conform to the 'Sendable' protocol
// An async construction hands its instance across tasks, so the type must be Sendable.
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

final class Handle { var count = 0 }
extension Injections {
    var handle: AsyncInjection<Handle, Never> { AsyncInjection { Handle() } }
}
