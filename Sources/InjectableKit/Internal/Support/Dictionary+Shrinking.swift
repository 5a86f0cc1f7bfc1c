extension Dictionary {
    /// A dictionary keeps its capacity when emptied: give it back once most of it is unused.
    mutating func shrinkIfSparse() {
        if capacity > 1024 && count * 8 < capacity {
            self = Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) })
        }
    }
}
