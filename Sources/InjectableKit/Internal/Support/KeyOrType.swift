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
        (self.registry, key, self.type, hash) = (registry, nil, type, Int(bitPattern: type))
    }

    /// An object by identity, as the memo's tables by keypath object file it: one key type for
    /// every table, whose conformance a process looks up once (see the note above).
    init(object: AnyObject) {
        self.init(registry: 0, type: ObjectIdentifier(object))
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hash == rhs.hash && lhs.registry == rhs.registry && lhs.type == rhs.type
            && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(word)
    }

    /// What a dictionary probes with (see ``seededHash(_:seed:)``).
    func _rawHashValue(seed: Int) -> Int {
        seededHash(word, seed: seed)
    }

    private var word: UInt {
        UInt(bitPattern: hash) ^ UInt(truncatingIfNeeded: registry &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// The hash of a table key already folded to `word`, mixed with the table's `seed` in a few
/// multiplications rather than `Hasher`'s rounds, which cost more than the rest of a look-up,
/// and are paid at every first resolution, framed helper call and recorded edge. (Keys are the
/// app's own registrations, and a keypath's part is its own seeded hash: nothing to flood a
/// table with.)
func seededHash(_ word: UInt, seed: Int) -> Int {
    var mixed = UInt64(truncatingIfNeeded: word) ^ UInt64(truncatingIfNeeded: seed)
    mixed = (mixed ^ (mixed >> 32)) &* 0xD6E8_FEB8_6659_FD93
    mixed = (mixed ^ (mixed >> 32)) &* 0xD6E8_FEB8_6659_FD93
    return Int(truncatingIfNeeded: mixed ^ (mixed >> 32))
}
