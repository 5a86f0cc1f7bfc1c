@testable import InjectableKit

/// Test-only access to a scope: its time to live as the `Duration` it was made with.
extension Injections.Scope {
    /// How long an instance stays cached before the next resolution builds a new one; `nil` for
    /// as long as the scope is not reset.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
    var timeToLive: Duration? {
        expiration.map { .nanoseconds(Int64(clamping: $0.nanoseconds)) }
    }
}
