/// One keypath resolution in progress on a thread.
@usableFromInline
struct Frame {
    let keyPath: AnyKeyPath
    /// Identifies the `Injections` value handed to this frame's getter.
    let token: UInt64
    let valueType: Any.Type
    /// The thread's resolution depth this frame's resolution runs at (1 for the outermost).
    let depth: Int
    /// Whether an override's factory, not the keypath's getter, is building this frame's value.
    let servedByOverride: Bool
    /// The registration's name, learned from a helper or a nested `resolve` in its getter.
    var name: StaticString?
    /// The scope entry of the last helper called directly for this frame, and how many.
    var helperEntry: Entry?
    var helperCount = 0
    /// How many of this frame's helpers are running their factories: a helper called while
    /// one runs is nested in it (`cached(A(b: shared(B())))`); otherwise the getter calls
    /// helpers one after another, which one key cannot be served from.
    var helpersRunning = 0
    /// The scope of the frame's helper, for diagnostics (`nil`: no helper, unique).
    var scope: Injections.Scope?
    /// Whether the frame's helper built its instance (rather than reusing a cached one).
    var built = false
}
