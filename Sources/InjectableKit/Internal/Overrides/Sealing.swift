import CInjectableAtomics

/// Whether `Injections.container.seal()` has been called: after it, every call that would swap
/// a dependency stops the process with a message that names what it tried.
enum Sealing {
    /// 1 once sealed, else 0.
    static var sealed: AtomicWord { AtomicWord(static: IK_SEALED) }

    @inline(__always)
    static func refuseIfSealed(_ attempt: @autoclosure () -> String) {
        if sealed.boolAcquiring { Failure.sealed(attempt()) }
    }
}
