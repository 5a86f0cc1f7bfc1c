// expect: cannot convert return expression of type 'Database' to return type 'String'
// An async key's value has the key's type.
// prelude: Isolation
import InjectableKit

func open() async throws -> String {
    try await Injections.container.resolve(\.database).value()
}
