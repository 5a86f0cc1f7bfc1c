/// A key handed to the check that resolves it in `verify`.
struct LentKey<Value>: @unchecked Sendable {
    // @unchecked: the keypath object is immutable; one to a key isolated to an actor
    // (`resolveIsolated`) is only used by a check that runs on the caller's thread, on that
    // actor (`VerificationRun.runHere`); the others are `Sendable` keypaths.
    let keyPath: KeyPath<Injections, Value>
}
