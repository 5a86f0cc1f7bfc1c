/// A dictionary key whose hash is computed once, when it is made: hashing a keypath walks its
/// components, and comparing two walks both, where a table rehashes every key as it grows and
/// compares the key it looks for with every key on its probe sequence.
struct Hashed<Key: Hashable>: Hashable {
    let key: Key
    private let hash: Int

    init(_ key: Key) {
        self.key = key
        hash = key.hashValue
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hash == rhs.hash && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
