/// The key of one cached instance: the registration's site, the instance's type, and, for a
/// registration that takes arguments, the keypath that carries them (`\.[account: 42]`).
struct EntryKey: Hashable, @unchecked Sendable {
    // @unchecked: `argument` is an immutable keypath object; only hashed and compared.
    let site: Site
    let type: ObjectIdentifier
    let argument: AnyKeyPath?
    /// What `Site` hashes, and the type, folded into one word once: a scope's dictionary
    /// hashes each key again every time it grows, and one word costs the hasher a fraction of
    /// six. (Wrapping arithmetic on small constants: the same on 32-bit `UInt`.)
    private let folded: UInt

    init(site: Site, type: ObjectIdentifier, argument: AnyKeyPath?) {
        self.site = site
        self.type = type
        self.argument = argument
        func fold(_ folded: UInt, _ part: UInt) -> UInt { (folded &* 31) ^ part }
        self.folded = fold(
            fold(
                fold(fold(UInt(bitPattern: type), site.line), site.column),
                UInt(site.function.utf8CodeUnitCount)),
            UInt(site.file.utf8CodeUnitCount))
    }

    static func == (lhs: EntryKey, rhs: EntryKey) -> Bool {
        lhs.folded == rhs.folded && lhs.type == rhs.type && lhs.site == rhs.site
            && lhs.argument == rhs.argument
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
        if let argument { hasher.combine(argument) }
    }
}
