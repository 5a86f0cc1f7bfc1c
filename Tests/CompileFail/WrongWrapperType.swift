// expect: cannot convert value of type
// A property wrapper whose declared type does not match its key does not compile.
import InjectableKit

extension Injections {
    var title: String { "title" }
}

final class Screen {
    @Injectable(\.title) var title: Int
}
