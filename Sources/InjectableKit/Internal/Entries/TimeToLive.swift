/// A time to live, in a form that code at the deployment floor (iOS 13, macOS 10.15) can hold.
///
/// `Duration` and `ContinuousClock` need iOS 16 and macOS 13, so only the `@available`
/// helpers that take a `Duration` make one (``init(_:)``): the closure they leave in ``start``
/// reads the clock, and nothing else does. An entry or a scope without a time to live holds
/// `nil` and never reads a clock, on every system.
final class TimeToLive: Sendable {
    /// The duration's components, to give it back as a `Duration`
    /// (``Injections/Scope/timeToLive``).
    let seconds: Int64
    let attoseconds: Int64
    /// Starts the time to live now, and returns what tells whether it has run out since.
    let start: @Sendable () -> @Sendable () -> Bool

    private init(
        seconds: Int64, attoseconds: Int64, start: @escaping @Sendable () -> @Sendable () -> Bool
    ) {
        self.seconds = seconds
        self.attoseconds = attoseconds
        self.start = start
    }
}

@available(iOS 16, macOS 13, tvOS 16, watchOS 9, visionOS 1, *)
extension TimeToLive {
    /// A time to live of `duration`, measured by `ContinuousClock` (which, like `Task.sleep`,
    /// keeps counting while the device sleeps).
    convenience init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(seconds: seconds, attoseconds: attoseconds) {
            let expiry = ContinuousClock.now.advanced(by: duration)
            return { ContinuousClock.now >= expiry }
        }
    }

    /// The duration it was made from.
    var duration: Duration {
        Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }
}
