// expect: does not conform to the 'Sendable' protocol
// A class with mutable state, held by a helper that hands its one instance to every thread,
// is a data race waiting to happen: the helper does not compile.
import InjectableKit

final class Counter {
    var count = 0
}

extension Injections {
    var counter: Counter { application(Counter()) }
}
