/// A key handed to a verification's thread. A key isolated to an actor can only be named in
/// that actor's code, and `verify`, called there, holds the actor while the thread resolves
/// the key (see `VerificationRun.run`).
struct LentKey<Value>: @unchecked Sendable {
    // @unchecked: the keypath object is immutable; what it reads is isolated to an actor only
    // if the caller of `verify` holds that actor, waiting, while the check's thread reads it.
    let keyPath: KeyPath<Injections, Value>

    init(_ keyPath: KeyPath<Injections, Value>) { self.keyPath = keyPath }
}
