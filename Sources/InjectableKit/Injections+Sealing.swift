extension Injections {
    /// Seals the override registry: from now on, no code can swap a dependency.
    ///
    /// Call it at launch in builds that must run their own implementations only, for example
    /// in release builds:
    ///
    /// ```swift
    /// @main struct App {
    ///     static func main() {
    ///         #if !DEBUG
    ///             Injections.container.seal()
    ///         #endif
    ///         ...
    ///     }
    /// }
    /// ```
    ///
    /// After sealing, `register`, `reset`, `push`, `pop` and `Injections.withOverrides` stop the
    /// process with a message naming the key or type they tried to swap: a refused override is
    /// never silently ignored. So do layers made before the seal: registering in one still in
    /// effect, running code in a captured ``Injections/currentOverrides``, a lazy wrapper's first read in the
    /// layer it was made in, and awaiting an ``AsyncInjection`` made in such a layer and not yet
    /// built (its construction would run there). Resolution and scope resets are unaffected, and
    /// so are tests and previews of an app that does not seal. The ``AutoRegistering`` hook runs
    /// before the seal takes effect. Sealing cannot be undone.
    public func seal() {
        AutoRegistration.ensure()
        Core.shared.overrides.seal()
    }

    /// Whether ``seal()`` has been called.
    public var isSealed: Bool {
        Sealing.sealed.boolAcquiring
    }
}
