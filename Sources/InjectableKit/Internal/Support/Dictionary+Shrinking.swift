extension Dictionary {
    /// Gives memory back once most of the capacity is unused: a dictionary keeps its capacity
    /// when emptied, so one that held many argument entries or edges would keep their space.
    mutating func shrinkIfSparse() {
        if capacity > 1024 && count * 8 < capacity {
            self = Dictionary(uniqueKeysWithValues: map { ($0.key, $0.value) })
        }
    }
}
