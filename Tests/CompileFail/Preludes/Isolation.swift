// Declarations the isolation and async snippets share (`// prelude: Isolation`).
import InjectableKit
import Observation

@MainActor @Observable final class ContentViewModel {
    var title = ""
    init() {}
}

@globalActor actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor final class Store {
    var items: [String] = []
    init() {}
}

struct Database: Sendable {
    static func open() async throws -> Database { Database() }
}

extension Injections {
    @MainActor var contentViewModel: ContentViewModel { shared(ContentViewModel()) }
    @StorageActor var store: Store { application(Store()) }
    var database: AsyncInjection<Database, any Error> {
        cached(AsyncInjection { try await Database.open() })
    }
}
