// expect: cannot form key path to main actor-isolated property
// A @MainActor key cannot be named, so not resolved, from nonisolated code.
// prelude: Isolation
import InjectableKit

func load() -> ContentViewModel {
    Injections.container.resolve(\.contentViewModel)
}
