/// Where a resolution of a key goes: what the memo keeps per key, in the word form of
/// `Internal/README.md`, "Key record and slot" 4; or why the memo has nothing the task may use.
@usableFromInline
enum Route {
    // NB: the cases in this order: the inlined fast path's code for matching them is shortest.
    /// Nothing current: check the overrides, then apply the keypath.
    case unknown
    /// No override applies; the getter builds a new instance every time.
    case getter
    /// As `getter`, and the getter calls no scope helper.
    case plainGetter
    /// No override applies; the entry holds the key's instance, if any, as itself or its view.
    case entry(Unmanaged<Entry>, view: Bool)
    /// A global override serves the key, unless a change has emptied the box since.
    case override(Unmanaged<OverrideBox>)
    /// Inside a layer, where the memo (the global registry's) does not apply.
    case layered
    /// Watched, or nested in a frame or a build: resolve with frames, remember nothing.
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
