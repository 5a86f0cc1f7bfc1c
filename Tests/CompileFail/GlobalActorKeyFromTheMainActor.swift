// expect: cannot form key path to global actor 'StorageActor'-isolated property
// Nor from the main actor: only from code on that actor.
// prelude: Isolation
import InjectableKit

@MainActor func load() -> Store {
    Injections.container.resolve(\.store)
}
