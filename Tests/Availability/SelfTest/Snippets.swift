// Snippets for the availability check's self-test (run.sh): never compiled. Each line that ends
// with the marker comment must be flagged by the check, and no other line may be.
import InjectableKit
import Observation
import Testing

@Observable final class Unguarded {}  // flagged

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@Observable final class Watched {}

@available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
@Observable final class TooLow {}  // flagged

@available(iOS 17, *)  // flagged
final class OnePlatform {}

@available(iOS 17, macOS 13, tvOS 17, watchOS 10, visionOS 1, *)  // flagged
final class Mismatched {}

struct Screen {
    @InjectableObject(\.guardedModel) var model  // flagged
}

extension Injections {
    var guardedModel: Watched { shared(Watched()) }  // flagged
    var expiring: Int { cached(1, timeToLive: .seconds(1)) }  // flagged
    var plain: Int { cached(1) }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Injections {
    var guardedModelToo: Watched { shared(Watched()) }
}

func useTheExtension() -> Any {
    \Injections.guardedModelToo  // flagged
}

func checksFirst() async throws {
    let timeout: Duration = .seconds(1)  // flagged
    if #available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *) {
        let inside: Duration = .seconds(1)
        try await Task.sleep(for: inside)
    } else {
        try await Task.sleep(for: .seconds(1))  // flagged
    }
    guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }
    _ = Watched()
    _ = timeout
}

@Suite(.timeLimit(.minutes(1)))  // flagged
struct SlowSuite {}

final class Ledger {
    private let lock = NSCondition()
    private var total = 0
    func add(_ amount: Int) { lock.withLock { total += amount } }  // flagged
}

func searchesText(_ text: String) -> Bool {
    text.contains("x") && text.contains("needle")  // flagged
}

func verifiesKeys() {
    _ = Injections.verify { _ in }
    _ = Injections.verify(timeout: .seconds(1)) { _ in }  // flagged
}

/// A public declaration whose `@available` is lower than what it uses (iOS 18).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
public func changesOfAScreen(_ object: InjectableObject<Watched>) -> Any {
    object.changes { _ in 1 }  // flagged
}
