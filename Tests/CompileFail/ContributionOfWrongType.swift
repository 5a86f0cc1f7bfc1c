// expect: arguments to generic parameter 'Element' ('String' and 'Int') are expected to be equal
// An element whose key is not of the collection's element type cannot be contributed.
import InjectableKit

extension Injections {
    var titles: Contributions<String> { cached(contributions(to: \.titles)) }
    var count: Int { 42 }
}

func contribute() {
    Injections.container.contribute(\.count, to: \.titles)
}
