/// The (A) rules of `Internal/README.md`, "Dependency edges"; checked in internal-checks builds.
extension DependencyIndex {
    /// That both sides of `serial`'s edges agree: local to one dependent, so that checking after
    /// every change stays cheap. Call with `lock` locked.
    @inline(__always)
    func checkInvariants(of serial: UInt64) {
        #if INJECTABLEKIT_INTERNAL_CHECKS
            guard let source = sources[serial] else { return }
            for (edge, count) in source.sources {
                precondition(count > 0, "an edge no resolution needs")
                precondition(
                    bySource[edge]?.contains(serial) == true,
                    "a \(edge.key == nil ? "type" : "key") edge in one side only")
            }
            for entry in source.entries {
                // Serial numbers are never reused, so a gone source's side never comes back.
                precondition(
                    byEntry[entry].map { $0.contains(serial) } ?? true,
                    "an entry edge in one side only")
            }
        #endif
    }
}
