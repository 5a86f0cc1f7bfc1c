extension Injections {
    /// One level of the override registry, as ``Injections/push()`` saved it: pass it to
    /// ``Injections/pop(to:file:line:)`` to put the registry back exactly as it was before that
    /// `push()`.
    ///
    /// ```swift
    /// let saved = Injections.container.push()
    /// defer { Injections.container.pop(to: saved) }
    /// runScenario()   // may register, push and pop as it likes
    /// ```
    ///
    /// It keeps the overrides it saved alive until it is released. It belongs to the registry
    /// its `push()` saved, the global one or a `withOverrides` layer, and restores that one
    /// wherever `pop(to:)` is called.
    public struct SavedOverrides: @unchecked Sendable {
        // @unchecked: an immutable copy of the registry's state, whose keypaths and overrides
        // the registry already hands between threads under its lock.
        let registry: OverrideRegistry
        let overrides: Overrides
        let below: [Overrides]
    }
}
