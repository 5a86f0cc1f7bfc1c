// expect: cannot convert value of type 'Int' to closure result type 'String'
// An override that builds the wrong type for its key does not compile.
import InjectableKit

extension Injections {
    var title: String { "title" }
}

func use() {
    Injections.container.register(\.title) { 42 }
}
