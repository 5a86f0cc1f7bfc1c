import CInjectableAtomics

/// A time to live, in a form that code at the deployment floor (iOS 13, macOS 10.15) can hold:
/// nanoseconds, measured by a monotonic clock that needs nothing newer
/// (`ik_monotonic_nanoseconds`, POSIX `CLOCK_MONOTONIC`).
///
/// `Duration` needs iOS 16 and macOS 13, so only the `@available` helpers that take one make a
/// time to live (``init(_:)``); the rest of the library holds this plain value, with no
/// reference to count, and an entry or a scope without a time to live holds `nil` and never
/// reads the clock.
struct TimeToLive: Sendable {
    /// The time to live in nanoseconds (at most `UInt64.max`, a time to live that never ends).
    let nanoseconds: UInt64

    /// The clock's reading now, in nanoseconds.
    static var now: UInt64 { ik_monotonic_nanoseconds() }

    /// When an instance stored now runs out its time, on the clock of ``now``.
    var expiryFromNow: UInt64 {
        let (expiry, overflow) = Self.now.addingReportingOverflow(nanoseconds)
        return overflow ? .max : expiry
    }
}

@available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
extension TimeToLive {
    /// A time to live of `duration`, to the nanosecond; a negative one has always run out.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else {
            nanoseconds = 0
            return
        }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        nanoseconds = overflow || carry ? .max : total
    }
}
