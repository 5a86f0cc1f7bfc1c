// expect: call to main actor-isolated initializer
// An override that builds a @MainActor type needs registerOnMainActor.
// prelude: Isolation
import InjectableKit

@MainActor func usePreview() {
    Injections.container.register(\.contentViewModel) { ContentViewModel() }
}
