// The types every suite builds: small classes, one per scenario, so that libraries that key
// by type (Swinject) or by key type (swift-dependencies) get one registration per scenario,
// as InjectableKit gets one key per scenario.

/// The protocol the `unique` scenario resolves as an existential.
protocol Service: AnyObject, Sendable {
    var id: Int { get }
}

final class ServiceImpl: Service {
    let id = 1
}

/// The `application` and `threads-*` singleton.
final class AppSettings: Sendable {
    /// The hand-written singleton that direct construction reads.
    static let shared = AppSettings()
    let value = 42
}

/// The second thread's singleton in `threads-2`.
final class ThreadSettings: Sendable {
    static let shared = ThreadSettings()
}

/// Held weakly (`shared`).
final class SharedThing: Sendable {}

/// Cached until its scope is reset (`cached`).
final class CachedThing: Sendable {
    static let shared = CachedThing()
}

/// The elements of `cached-collection`, and the hand-written collection of them.
final class CollectedThing: Sendable {
    static let all = [CollectedThing(), CollectedThing()]
}

/// The links of `chain`: `ChainA(b: ChainB(c: ChainC()))`.
final class ChainC: Sendable {}

final class ChainB: Sendable {
    let c: ChainC
    init(c: ChainC) { self.c = c }
}

final class ChainA: Sendable {
    let b: ChainB
    init(b: ChainB) { self.b = b }
}

/// The singleton injected into a property (`wrapper`).
final class WrappedThing: Sendable {
    static let shared = WrappedThing()
}

/// The singleton resolved with overrides registered (`override-other`, `override-same`).
final class OverrideTarget: Sendable {
    static let shared = OverrideTarget()
}

/// The other key, overridden in `override-other`.
final class Decoy: Sendable {}

/// Built anew after each reset (`first-after-reset`).
final class ResetThing: Sendable {
    let value = 7
}

/// Resolved after the diagnostics were turned on and off (`trace-off`), and while the trace is
/// on (`trace-on`).
final class TracedThing: Sendable {
    let value = 8
}

/// An argument value's instance, for the `reset one value` scenarios.
final class ValueThing: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
