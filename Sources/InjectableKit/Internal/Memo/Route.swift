/// Where a resolution of a key goes: the one fact the memo keeps per key (the first four cases,
/// true while no override of the global registry changes), with its word form, which every slot
/// of the key holds; or, when the memo has nothing the task may use, why not (the last three).
///
/// | route | word |
/// | --- | --- |
/// | getter | 0 |
/// | plain getter | 1 (no object's address is 1) |
/// | entry | the entry's address, with `viewFlag` (2) to read the entry's view |
/// | override | the key's `OverrideBox`'s address, with `overrideFlag` (4) |
///
/// An object's address is at least 8-byte aligned on every platform, which leaves the three
/// low bits free.
@usableFromInline
enum Route {
    // NB: the cases in this order: the inlined fast path's code for matching them is shortest.
    /// Nothing current: check the overrides, then apply the keypath.
    case unknown
    /// No override applies; the getter builds a new instance every time.
    case getter
    /// As `getter`, and the getter calls no scope helper.
    case plainGetter
    /// No override applies; the entry holds the key's instance, when it holds one: as its own
    /// type, or if `view` as its view's type (see `Entry.adoptView`).
    case entry(Unmanaged<Entry>, view: Bool)
    /// A global override serves the key, and the box holds it unless a change has emptied the
    /// box since.
    case override(Unmanaged<OverrideBox>)
    /// The task runs inside `Injections.withOverrides`: the memo, which describes the global
    /// registry and caches, does not apply.
    case layered
    /// The trace or graph recording is on, or the resolution is nested in a frame or a build:
    /// resolve with frames, and remember nothing.
    case observed

    @usableFromInline static var plainGetterWord: UInt { 1 }
    @usableFromInline static var viewFlag: UInt { 2 }
    @usableFromInline static var overrideFlag: UInt { 4 }

    /// The route a slot's word names; ``unknown`` for `MemoTable.noSlot` (no current slot).
    @inline(__always)
    init(word: UInt) {
        switch word {
        case MemoTable.noSlot:
            self = .unknown
        case 0:
            self = .getter
        case Self.plainGetterWord:
            self = .plainGetter
        case let word where word & Self.overrideFlag != 0:
            let address = UnsafeRawPointer(bitPattern: word & ~Self.overrideFlag)!
            self = .override(Unmanaged<OverrideBox>.fromOpaque(address))
        case let word:
            let address = UnsafeRawPointer(bitPattern: word & ~Self.viewFlag)!
            self = .entry(Unmanaged<Entry>.fromOpaque(address), view: word & Self.viewFlag != 0)
        }
    }

    /// The word that names this route in a slot.
    var word: UInt {
        switch self {
        case .getter: 0
        case .plainGetter: Self.plainGetterWord
        case .entry(let entry, let view):
            Self.address(of: entry.toOpaque()) | (view ? Self.viewFlag : 0)
        case .override(let box): Self.address(of: box.toOpaque()) | Self.overrideFlag
        case .unknown, .layered, .observed:
            preconditionFailure("InjectableKit: the memo keeps only what it learned")
        }
    }

    private static func address(of object: UnsafeMutableRawPointer) -> UInt {
        let word = UInt(bitPattern: object)
        assert(word & 7 == 0, "InjectableKit: an object's address is 8-byte aligned")
        return word
    }
}
