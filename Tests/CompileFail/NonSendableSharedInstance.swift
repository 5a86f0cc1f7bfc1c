// expect: this helper hands one instance to every thread, but the type it holds is not Sendable
// flags: -warnings-as-errors
// A class with mutable state, held by a helper that hands its one instance to every thread,
// is a data race waiting to happen: the compiler warns (an error here, with the flag).
import InjectableKit

final class Counter {
    var count = 0
}

extension Injections {
    var counter: Counter { application(Counter()) }
}
