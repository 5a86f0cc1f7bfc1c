@testable import InjectableKit

/// Test-only access to what diagnostics hold.
extension Diagnostics {
    /// Whether a trace or recording started in the layer with `serial` is on.
    static func isOn(inLayer serial: UInt64) -> Bool {
        lock.withLock { started[serial] != nil }
    }
}
