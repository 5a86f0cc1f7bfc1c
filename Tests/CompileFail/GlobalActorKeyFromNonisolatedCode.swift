// expect: cannot form key path to global actor 'StorageActor'-isolated property
// A key isolated to another global actor cannot be named from nonisolated code.
// prelude: Isolation
import InjectableKit

func load() -> Store {
    Injections.container.resolve(\.store)
}
