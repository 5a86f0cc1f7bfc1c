/// The global override that serves one key, where the memo's slots can name it: a key record's
/// box, kept for as long as the record (for good), so that a slot's word may hold its address.
///
/// The override itself is not kept for good: every change of the global overrides empties every
/// box (`MemoTable.forgetOverrides`), and a reader that finds its box empty resolves on the
/// framed path. Readers take the box's lock to retain the override: a change may release it at
/// any moment after emptying the box.
@usableFromInline
final class OverrideBox: @unchecked Sendable {
    // @unchecked: `override` and `entry` are guarded by `lock`.
    /// The lock's two words, first among the stored properties so that their address is a
    /// fixed offset in the object (see `AtomicWord.init(inline:of:)`): resolutions that an
    /// override serves take this lock, with no pointer to follow.
    @exclusivity(unchecked) private var lockWords: (UInt, UInt) = (LockWord.free, 0)
    private var override: AnyOverride?
    /// Where `override` keeps what it built for this key, once a resolution has found it: the
    /// next resolutions read it there, with no frame, lifetime look-up or scope look-up. Let go
    /// of with the override it belongs to.
    private var entry: Entry?
    /// Where the key keeps its instance (see `OverrideLifetimes`): the key's, so kept across
    /// overrides.
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

    /// The override, the entry it keeps its instance in and the key's lifetime, as far as
    /// resolutions have found them.
    var served: (AnyOverride?, Entry?, OverrideLifetimes.Learned?) {
        lock.withLock { (override, entry, learned) }
    }

    /// Records the key's lifetime, and that `override` keeps its instance for this key in
    /// `entry` (if any), if it is still the box's override.
    func remember(_ entry: Entry?, _ learned: OverrideLifetimes.Learned?, for override: AnyOverride)
    {
        lock.withLock {
            self.learned = learned
            if self.override === override, let entry { self.entry = entry }
        }
    }

    /// Puts `override` in the box, and returns what it held, to be released by the caller
    /// outside every lock (a deinit may use the container), with the entry it kept.
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
