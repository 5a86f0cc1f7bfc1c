// expect: compiles
// Guards the script against passing vacuously: every form the failing snippets get wrong,
// written right.
// prelude: Isolation
import InjectableKit

protocol Greeter { func greet() -> String }
final class LiveGreeter: Greeter { func greet() -> String { "hello" } }
final class Account {
    let id: Int
    init(id: Int) { self.id = id }
}

extension Injections {
    var greeter: any Greeter { shared(LiveGreeter()) }
    var name: String { "InjectableKit" }
    subscript(account id: Int) -> Account { cached(Account(id: id)) }
}

final class Screen {
    @Injectable(\.greeter) var greeter
    @Injectable(\.name) var name: String
}

func use() {
    _ = Injections.container.resolve(\.greeter)
    _ = Injections.container.resolve(\.[account: 42])
    Injections.container.register(\.name) { "mock" }
    Injections.container.register { LiveGreeter() as any Greeter }
}

// Isolation and async construction, written right.

@MainActor final class ContentScreen {
    @InjectableObject(\.contentViewModel) var viewModel
    @Injectable(\.database) var database
}

@MainActor func preview() -> ContentViewModel {
    Injections.container.registerOnMainActor(\.contentViewModel) { ContentViewModel() }
    return Injections.container.resolve(\.contentViewModel)
}

func load() async throws -> (ContentViewModel, Database) {
    let viewModel = await MainActor.run { Injections.container.resolve(\.contentViewModel) }
    return (viewModel, try await Injections.container.resolve(\.database).value())
}
