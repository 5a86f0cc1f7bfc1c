/// The global override that serves one key, where the memo's slots can name it: a key record's
/// box, kept for as long as the record (for good), so that a slot's word may hold its address.
///
/// The override itself is not kept for good: every change of the global overrides empties every
/// box (`MemoTable.forgetOverrides`), and a reader that finds its box empty resolves on the
/// framed path. Readers take the box's lock to retain the override: a change may release it at
/// any moment after emptying the box.
@usableFromInline
final class OverrideBox: @unchecked Sendable {
    // @unchecked: `override` is guarded by `lock`.
    /// The lock's word, first among the stored properties so that its address is a fixed
    /// offset in the object (see `AtomicWord.init(inline:of:)`): resolutions that an override
    /// serves take this lock, with no pointer to follow.
    @exclusivity(unchecked) private var lockWord = LockWord.free
    private var override: AnyOverride?
    private var lock: LockWord {
        LockWord(AtomicWord(inline: 0, of: self).address, rank: .overrideBox)
    }

    init() {
        AtomicWord.checkInlineWords(&lockWord, of: self)
    }

    /// The override, retained; `nil` once a change has emptied the box.
    var current: AnyOverride? {
        lock.withLock { override }
    }

    /// Puts `override` in the box, and returns what it held, to be released by the caller
    /// outside every lock (a deinit may use the container).
    func replace(with override: AnyOverride?) -> AnyOverride? {
        lock.withLock {
            let old = self.override
            self.override = override
            return old
        }
    }
}
