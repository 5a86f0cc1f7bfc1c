// expect: compiles
// flags: -warnings-as-errors
// Guards the script against passing vacuously: every form the failing snippets get wrong,
// written right.
// prelude: Isolation
import InjectableKit

protocol Greeter { func greet() -> String }
final class LiveGreeter: Greeter, Sendable { func greet() -> String { "hello" } }
final class Account: Sendable {
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
        await Task.yield()
        return title + Injections.container.resolve(\.contentViewModel).title
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

// Helpers that hand one instance to every thread, holding Sendable types: no warning. A
// main-actor view model is Sendable; a type the app confines to one thread says so.
@MainActor final class ListViewModel {
    var items: [String] = []
    init() {}
}

final class ConfinedCounter {
    var count = 0
}

// The app touches it from the main thread only.
extension ConfinedCounter: @unchecked Sendable {}

extension Injections {
    @MainActor var listViewModel: ListViewModel { shared(ListViewModel()) }
    var confinedCounter: ConfinedCounter { application(ConfinedCounter()) }
    var greeterForAll: any Greeter & Sendable { cached(SendableGreeter()) }
}

final class SendableGreeter: Greeter, Sendable { func greet() -> String { "hi" } }
