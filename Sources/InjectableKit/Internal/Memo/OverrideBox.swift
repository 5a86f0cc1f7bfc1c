/// The global override that serves one key, kept with its record for good so that slots may
/// name it (`Internal/README.md`, "Key record and slot" 7).
@usableFromInline
final class OverrideBox: @unchecked Sendable {
    // @unchecked: `override` and `entry` are guarded by `lock`.
    /// First among the stored properties (`AtomicWord.init(inline:of:)`): resolutions an
    /// override serves take this lock with no pointer to follow.
    @exclusivity(unchecked) private var lockWords: (UInt, UInt) = (LockWord.free, 0)
    private var override: AnyOverride?
    /// Where `override` keeps this key's instance, once found: read there with no frame or
    /// look-up. Let go of with the override.
    private var entry: Entry?
    /// The key's own (`OverrideLifetimes`), so kept across overrides.
    private var learned: OverrideLifetimes.Learned?
    private var lock: LockWord {
        LockWord(AtomicWord(inline: 0, of: self).address, rank: .overrideBox)
    }

    init() {
        AtomicWord.checkInlineWords(&lockWords, of: self)
    }

    deinit {
        lock.releaseSleepers()
    }

    var served: (AnyOverride?, Entry?, OverrideLifetimes.Learned?) {
        lock.withLock { (override, entry, learned) }
    }

    /// Keeps `entry` only if `override` is still the box's.
    func remember(_ entry: Entry?, _ learned: OverrideLifetimes.Learned?, for override: AnyOverride)
    {
        lock.withLock {
            self.learned = learned
            if self.override === override, let entry { self.entry = entry }
        }
    }

    /// Returns what it held, to be released by the caller outside every lock (a deinit may use
    /// the container).
    func replace(with override: AnyOverride?) -> AnyOverride? {
        let (old, oldEntry) = lock.withLock {
            let old = (self.override, entry)
            self.override = override
            entry = nil
            return old
        }
        withExtendedLifetime(oldEntry) {}
        return old
    }
}
