// expect: call can throw, but it is not marked with 'try'
// An async key whose construction throws must be awaited with try.
// prelude: Isolation
import InjectableKit

func open() async -> Database {
    await Injections.container.resolve(\.database).value()
}
