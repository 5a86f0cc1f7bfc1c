/// A key or a type, with the override registry that decides it (by serial number; 0 in a table
/// no registry decides), hashed once: hashing a keypath walks its components, comparing two
/// walks both, and a hash table rehashes every key as it grows and compares the key it looks for
/// with each key on its probe sequence. The dependency index's edges, a scope's entries by key
/// and the memo's key records are keyed by it.
///
/// NB: one non-generic type for all of them: each hash table's first use in a process has the
/// runtime look up its key type's `Hashable` conformance, a scan of every conformance record.
struct KeyOrType: Hashable {
    let registry: UInt64
    /// The key; `nil` for a type.
    let key: AnyKeyPath?
    let type: ObjectIdentifier?
    private let hash: Int

    init(registry: UInt64 = 0, key: AnyKeyPath) {
        (self.registry, self.key, type, hash) = (registry, key, nil, key.hashValue)
    }

    init(registry: UInt64, type: ObjectIdentifier) {
        (self.registry, key, self.type, hash) = (registry, nil, type, type.hashValue)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hash == rhs.hash && lhs.registry == rhs.registry && lhs.type == rhs.type
            && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        // One word rather than two: each word the hasher takes costs it a round.
        hasher.combine(hash ^ Int(truncatingIfNeeded: registry &* 0x9E37_79B9_7F4A_7C15))
    }
}
