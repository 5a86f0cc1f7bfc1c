import Foundation
import InjectableKit

protocol Clock: Sendable {
    var now: String { get }
}

struct SystemClock: Clock {
    let now = "live"
}

struct FixedClock: Clock {
    let now: String
}

/// A clock registered by its own type: keys declared `any Clock` never ask for it.
struct ConcreteClock: Clock {
    let now = "concrete"
}

final class Greeter: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
    var greeting: String { "hello at \(clock.now)" }
}

extension Injections {
    var testingClock: any Clock { SystemClock() }
    var testingBackupClock: any Clock { SystemClock() }
    var testingOptionalClock: (any Clock)? { nil }
    var testingGreeter: Greeter { Greeter(clock: resolve(\.testingClock)) }
    var testingCounter: Tally { cached(Tally()) }
    /// A decorated key: its decoration counts on every tally built, the trait's override's too.
    var testingDecoratedTally: Tally { cached(Tally(), decorate: { $0.count += 1 }) }
}

final class Tally: @unchecked Sendable {
    // @unchecked: each test mutates its own instance from one task at a time.
    var count = 0
}

@MainActor final class TestingViewModel {
    let title: String
    init(title: String = "live") { self.title = title }
}

extension Injections {
    @MainActor var testingViewModel: TestingViewModel { shared(TestingViewModel()) }
}

/// A clock of a type no test overrides by type, for keys that work outside a test's task
/// resolves: such a resolution is reported to every test whose layer overrides its key, by key
/// or by type, and tests run in parallel.
struct DetachedProbeClock: Sendable {
    let now: String
}
