import Synchronization

/// Whether `Injections.container.seal()` has been called: after it, every call that would swap
/// a dependency stops the process with a message that names what it tried.
enum Sealing {
    static let sealed = Atomic<Bool>(false)

    @inline(__always)
    static func refuseIfSealed(_ attempt: @autoclosure () -> String) {
        if sealed.load(ordering: .acquiring) { Failure.sealed(attempt()) }
    }
}
