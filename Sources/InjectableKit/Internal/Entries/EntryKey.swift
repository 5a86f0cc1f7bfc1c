/// An entry's registration and value type (`Internal/README.md`, "Objects", Entry).
struct EntryKey: Hashable, @unchecked Sendable {
    // @unchecked: `registration`'s keypaths are immutable; its override is compared by identity.
    let site: Site
    let type: ObjectIdentifier
    let registration: Registration
    /// What `Site` hashes, the type and the keypath's hash, folded once: a dictionary rehashes
    /// its keys as it grows, and hashing a keypath walks its components.
    private let folded: UInt

    /// What tells apart registrations that share a helper's call site.
    enum Registration {
        case site
        /// The keypath that carries a subscript's arguments (`\.[account: 42]`).
        case argument(AnyKeyPath)
        /// The key being resolved, for a helper in a function that several keys may call.
        case owner(AnyKeyPath)
        /// The override whose factory called the helper, so that a replaced override's running
        /// build never fills its replacement's entry; with a subscript helper's arguments.
        case override(AnyOverride, AnyKeyPath?)

        /// The keypath that tells this registration apart, if any.
        var keyPath: AnyKeyPath? {
            switch self {
            case .argument(let keyPath), .owner(let keyPath), .override(_, let keyPath?): keyPath
            case .site, .override: nil
            }
        }
    }

    init(site: Site, type: ObjectIdentifier, registration: Registration = .site) {
        self.site = site
        self.type = type
        self.registration = registration
        var folded = Site.fold(UInt(bitPattern: type), site.folded)
        if let keyPath = registration.keyPath {
            folded = Site.fold(folded, UInt(bitPattern: keyPath.hashValue))
        }
        self.folded = folded
    }

    var argument: AnyKeyPath? {
        if case .argument(let keyPath) = registration { return keyPath }
        return nil
    }

    var override: AnyOverride? {
        if case .override(let override, _) = registration { return override }
        return nil
    }

    /// An entry of which a scope may hold any number: one argument value's, override's or owner
    /// key's (see `ScopeStorage.mayForget`).
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

    /// What a dictionary probes with (see ``seededHash(_:seed:)``).
    func _rawHashValue(seed: Int) -> Int {
        seededHash(folded, seed: seed)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }
}
