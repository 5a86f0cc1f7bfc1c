/// A key or a type, with the registry deciding it (serial; 0: none), hashed once: hashing a
/// keypath walks its components, and a table rehashes its keys as it grows.
/// NB: one non-generic key type for every table: a table's first use in a process looks up its
/// key type's `Hashable` conformance, a scan of every conformance record.
struct KeyOrType: Hashable {
    let registry: UInt64
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
