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

// A main-actor key overridden by key in a layer, from main-actor code (sync and async), and
// from nonisolated code through a layer made on the main actor.
@MainActor func previewInALayer() async -> String {
    let title = Injections.withOverrides {
        $0.registerOnMainActor(\.contentViewModel) { ContentViewModel() }
    } operation: {
        Injections.container.resolve(\.contentViewModel).title
    }
    return await Injections.withOverrides {
        $0.registerOnMainActor(\.contentViewModel) { ContentViewModel() }
    } operation: {
        title + Injections.container.resolve(\.contentViewModel).title
    }
}

func layerFromNonisolatedCode() async -> String {
    let layer = await MainActor.run {
        Injections.makeOverrides {
            $0.registerOnMainActor(\.contentViewModel) { ContentViewModel() }
        }
    }
    return await Injections.withOverrides(layer) {
        await MainActor.run { Injections.container.resolve(\.contentViewModel).title }
    }
}
