// expect: has no member 'missingService'
// A key that was never registered does not compile.
import InjectableKit

func use() {
    _ = Injections.container.resolve(\.missingService)
}
