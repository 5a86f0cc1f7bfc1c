import CInjectableAtomics

/// After `Injections.container.seal()`, every call that would swap a dependency stops.
enum Sealing {
    /// 1 once sealed, else 0.
    static var sealed: AtomicWord { AtomicWord(static: IK_SEALED) }

    @inline(__always)
    static func refuseIfSealed(_ attempt: @autoclosure () -> String) {
        if sealed.boolAcquiring { Failure.sealed(attempt()) }
    }
}
