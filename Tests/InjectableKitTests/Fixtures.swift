import Foundation
import InjectableKit
import Observation
import TestSupport
import Testing

/// The size of a long test (stress, model, memory bounds): `quick` by default, so that
/// `swift test` takes seconds, `full` with `INJECTABLEKIT_STRESS=full` (as some of CI's steps
/// run them: see .ci/run). A quick size must still let the test fail: enough threads and
/// rounds for the races it looks for to happen.
func stressSize(quick: Int, full: Int) -> Int {
    ProcessInfo.processInfo.environment["INJECTABLEKIT_STRESS"] == "full" ? full : quick
}

/// Counts constructions, so tests can tell "built once" from "built twice".
final class Counter: Sendable {
    private let value = TestAtomic<Int>(0)
    /// - Returns: The count after this increment.
    @discardableResult
    func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

protocol Greeting: Sendable {
    var text: String { get }
}

/// The greeting type of the keys that suites running in parallel resolve. A layer falls back
/// to the global overrides, and serialized suites override `any Greeting` by type there, so a
/// parallel suite's key of that type could see their mocks; no suite overrides this type
/// globally.
protocol LayeredGreeting: Greeting {}

final class LiveGreeting: LayeredGreeting {
    let text = "live"
}

final class MockGreeting: LayeredGreeting {
    let text: String
    init(_ text: String = "mock") { self.text = text }
}

/// A class whose instances are told apart by identity.
final class Service: Sendable {
    let name: String
    init(_ name: String = "service") { self.name = name }
}

struct ValueService: Sendable {
    let serial: Int
}

final class Consumer: Sendable {
    let greeting: any Greeting
    init(greeting: any Greeting) { self.greeting = greeting }
}

final class Node: Sendable {
    let id: Int
    let child: Node?
    init(id: Int, child: Node? = nil) {
        self.id = id
        self.child = child
    }
}

final class Account: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

final class Parent: Sendable {
    let name = "parent"
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@Observable
final class CounterViewModel: @unchecked Sendable {
    // @unchecked: tests read and write it from one task at a time.
    var value = 0
}

enum Counters {
    static let valueServices = Counter()
    static let cachedBuilds = Counter()
    static let applicationBuilds = Counter()
    static let argumentBuilds = Counter()
    static let lazyResolutions = Counter()
    static let slowBuilds = Counter()
    static let graphBuilds = Counter()
}

extension Injections.Scope {
    static let testSession = Injections.Scope.cached("testSession")
    static let weakCustom = Injections.Scope.shared("weakCustom")
}

// The time-to-live fixtures: a time to live is a `Duration`, which needs iOS 16 and macOS 13.
@available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
extension Injections.Scope {
    static let shortLived = Injections.Scope.cached("shortLived", timeToLive: .milliseconds(300))
}

@available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
extension Injections {
    var expiringService: Service { cached(Service("expiring"), timeToLive: .milliseconds(300)) }
    var shortLivedService: Service { scoped(.shortLived, Service("short lived")) }
}

extension Injections {
    // Scopes
    var uniqueService: Service { Service("unique") }
    var sharedService: Service { shared(Service("shared")) }
    var sharedValue: ValueService {
        Counters.valueServices.increment()
        return shared(ValueService(serial: Counters.valueServices.count))
    }
    var sharedOptionalService: Service? { shared(Service("optional") as Service?) }
    var sharedAnyService: any Sendable { shared(Service("any") as any Sendable) }
    var sharedOptionalInAny: any Sendable {
        shared(Service("optional in any") as Service? as any Sendable)
    }
    var sharedGreetingExistential: any Greeting { shared(LiveGreeting() as any Greeting) }
    var sharedValueExistential: any Sendable {
        Counters.valueServices.increment()
        return shared(ValueService(serial: Counters.valueServices.count) as any Sendable)
    }
    var cachedService: Service { cached(Service("cached")) }
    var otherCachedService: Service { cached(Service("other cached")) }
    var applicationService: Service { application(Service("application")) }
    var sessionService: Service { scoped(.testSession, Service("session")) }
    var weakCustomService: Service { scoped(.weakCustom, Service("weak custom")) }
    var optionalCachedService: Service? { cached(nil) }

    // Constructor injection and graph
    var greeting: any Greeting { LiveGreeting() }
    var consumer: Consumer { Consumer(greeting: resolve(\.greeting)) }
    var cachedConsumer: Consumer { cached(Consumer(greeting: resolve(\.greeting))) }
    var graphNode: Node {
        graph(
            {
                Counters.graphBuilds.increment()
                return Node(id: 0)
            }())
    }
    var graphPair: (Node, Node) { (resolve(\.graphNode), resolve(\.graphNode)) }
    var graphNilInAny: Any {
        graph(
            {
                Counters.graphBuilds.increment()
                return Int?.none as Any
            }())
    }
    var graphNilInAnyTwice: (Any, Any) { (resolve(\.graphNilInAny), resolve(\.graphNilInAny)) }

    // Arguments
    subscript(account id: Int) -> Account {
        cached(
            {
                Counters.argumentBuilds.increment()
                return Account(id: id)
            }())
    }

    // Overrides
    var firstGreeting: any Greeting { LiveGreeting() }
    var secondGreeting: any Greeting { LiveGreeting() }
    var sharedGreeting: any Greeting { shared(LiveGreeting()) }
    var currentUser: Service? { nil }

    // Wrappers
    var lazyService: Service {
        Counters.lazyResolutions.increment()
        return Service("lazy")
    }
    var parent: Parent { shared(Parent()) }
    var optionalParent: Parent? { shared(Parent()) }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    var counterViewModel: CounterViewModel { shared(CounterViewModel()) }
}

/// Runs `operation` in a new `withOverrides` layer with no overrides: its own scope caches, so
/// that a test can run in parallel with others.
func inOwnLayer<Result>(_ operation: () throws -> Result) rethrows -> Result {
    try Injections.withOverrides { _ in
    } operation: {
        try operation()
    }
}

/// The async form of `inOwnLayer(_:)`, run in the caller's isolation.
func inOwnLayer<Result>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Result
) async rethrows -> Result {
    try await Injections.withOverrides { _ in
    } operation: {
        try await operation()
    }
}

/// A minute per test, for the suites whose failure would be a hang: Swift Testing's time limit,
/// which needs iOS 16 and macOS 13, above the package's floor; below those, no limit.
let aMinutePerTest: any SuiteTrait = {
    if #available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *) {
        return TimeLimitTrait.timeLimit(.minutes(1))
    }
    return ConditionTrait.enabled(if: true)
}()
