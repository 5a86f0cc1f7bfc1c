import CInjectableAtomics

/// A time to live in nanoseconds of POSIX `CLOCK_MONOTONIC`: `Duration` needs iOS 16 and
/// macOS 13, above the deployment floor, so only the `@available` helpers take one.
struct TimeToLive: Sendable {
    /// The time to live in nanoseconds (at most `UInt64.max`, a time to live that never ends).
    let nanoseconds: UInt64

    static var now: UInt64 { ik_monotonic_nanoseconds() }

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
