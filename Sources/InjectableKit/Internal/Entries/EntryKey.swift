/// The key of one cached instance: which registration it belongs to, and the instance's type.
///
/// A registration is the helper's call site and, where the site alone does not tell, one more
/// thing (``Registration``).
struct EntryKey: Hashable, @unchecked Sendable {
    // @unchecked: `registration` holds immutable keypath objects, only hashed and compared, or
    // an override, compared by identity.
    let site: Site
    let type: ObjectIdentifier
    let registration: Registration
    /// What `Site` hashes, and the type, folded into one word once: a scope's dictionary
    /// hashes each key again every time it grows, and one word costs the hasher a fraction of
    /// six. (Wrapping arithmetic on small constants: the same on 32-bit `UInt`.)
    private let folded: UInt

    /// What tells apart registrations that share a helper's call site.
    enum Registration {
        /// The site alone: a helper in a property's getter is that registration's.
        case site
        /// The keypath that carries a subscript's arguments (`\.[account: 42]`): hashed.
        case argument(AnyKeyPath)
        /// The key being resolved, for a helper in a function with parameters that several
        /// keys may call (an app's own `func cachedLeaf(_:)`), one instance per key (per
        /// argument value, for a subscript key).
        case owner(AnyKeyPath)
        /// The override whose factory called the helper: one registration for every key it
        /// serves, and never the one its replacement serves, so that a replaced override's
        /// build, still running, never fills the entry its replacement reads. With the
        /// arguments' keypath when the override builds in a subscript's helper.
        case override(AnyOverride, AnyKeyPath?)
    }

    init(site: Site, type: ObjectIdentifier, registration: Registration = .site) {
        self.site = site
        self.type = type
        self.registration = registration
        func fold(_ folded: UInt, _ part: UInt) -> UInt { (folded &* 31) ^ part }
        self.folded = fold(
            fold(
                fold(fold(UInt(bitPattern: type), site.line), site.column),
                UInt(site.function.utf8CodeUnitCount)),
            UInt(site.file.utf8CodeUnitCount))
    }

    /// The keypath that carries the arguments, for a helper in a subscript.
    var argument: AnyKeyPath? {
        if case .argument(let keyPath) = registration { return keyPath }
        return nil
    }

    /// The override whose factory called the helper, if one did.
    var override: AnyOverride? {
        if case .override(let override, _) = registration { return override }
        return nil
    }

    /// Whether its scope forgets the entry when reset, or when the entry is idle and empty: an
    /// entry for one argument value, one override or one owner key (which may carry
    /// arguments), of which there may be any number.
    var isForgettable: Bool {
        switch registration {
        case .argument, .override, .owner: true
        case .site: false
        }
    }

    static func == (lhs: EntryKey, rhs: EntryKey) -> Bool {
        guard lhs.folded == rhs.folded && lhs.type == rhs.type && lhs.site == rhs.site else {
            return false
        }
        switch (lhs.registration, rhs.registration) {
        case (.site, .site): return true
        case (.argument(let lhs), .argument(let rhs)), (.owner(let lhs), .owner(let rhs)):
            return lhs == rhs
        case (.override(let lhs, let lhsArgument), .override(let rhs, let rhsArgument)):
            return lhs === rhs && lhsArgument == rhsArgument
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
        switch registration {
        case .argument(let keyPath), .owner(let keyPath), .override(_, let keyPath?):
            hasher.combine(keyPath)
        case .site, .override: break
        }
    }
}
