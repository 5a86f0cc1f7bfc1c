// expect: main actor-isolated default value in a nonisolated context
// A @MainActor view model is injected only into a type that runs on the main actor.
// prelude: Isolation
import InjectableKit

struct Screen {
    @InjectableObject(\.contentViewModel) var viewModel
}
