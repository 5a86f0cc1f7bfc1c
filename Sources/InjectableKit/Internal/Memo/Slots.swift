import Synchronization

/// Open-addressing slots of four words: key (a keypath object's address, 0 for empty),
/// generation, entry word, and one unused word that keeps a slot inside a cache line. Written
/// only under `MemoTable`'s lock, read by anyone.
final class Slots: @unchecked Sendable {
    // @unchecked: slots are atomics. A slot's key is stored last (release) when it is made, and
    // its entry word before its generation when it changes; readers load in the other order
    // (acquire).
    let capacity: Int
    private let shift: UInt
    private let mask: Int
    private let words: UnsafeMutablePointer<Atomic<UInt>>

    private static let width = 4
    /// 2^bits / φ, for the word's width (a 64-bit literal would not compile as a 32-bit `UInt`).
    private static let fibonacci =
        UInt.bitWidth == 64
        ? UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        : UInt(truncatingIfNeeded: 0x9E37_79B9 as UInt64)

    init(capacity: Int) {
        precondition(capacity > 1 && capacity & (capacity - 1) == 0, "a power of two")
        self.capacity = capacity
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        mask = capacity - 1
        // Aligned to a cache line, so that each slot (four words) sits in one line.
        words = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * Self.width * MemoryLayout<Atomic<UInt>>.stride, alignment: 64
        ).bindMemory(to: Atomic<UInt>.self, capacity: capacity * Self.width)
        for index in 0..<capacity * Self.width {
            (words + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        words.deinitialize(count: capacity * Self.width)
        UnsafeMutableRawPointer(words).deallocate()
    }

    @inline(__always)
    private func start(_ key: UInt) -> Int {
        // Fibonacci hashing: the product's high bits depend on all of the address's bits.
        Int(truncatingIfNeeded: (key &* Self.fibonacci) &>> shift)
    }

    /// The entry word of `key`'s slot if the slot's generation is `generation`, otherwise
    /// `MemoTable.noSlot`. Wrapping arithmetic: indices stay below `capacity`.
    @inline(__always)
    func entryWord(for key: UInt, at generation: UInt) -> UInt {
        var index = start(key)
        while true {
            let slot = words + index &* Self.width
            let found = slot[0].load(ordering: .acquiring)
            if found == key {
                guard slot[1].load(ordering: .acquiring) == generation else {
                    return MemoTable.noSlot
                }
                return slot[2].load(ordering: .acquiring)
            }
            if found == 0 { return MemoTable.noSlot }
            index = (index &+ 1) & mask
        }
    }

    /// Sets the slot for `key`, making it if needed.
    func store(_ key: UInt, generation: UInt, entry: UInt) {
        var index = start(key)
        while true {
            let slot = index * Self.width
            let found = words[slot].load(ordering: .relaxed)
            if found == key || found == 0 {
                words[slot + 2].store(entry, ordering: .releasing)
                words[slot + 1].store(generation, ordering: .releasing)
                if found == 0 { words[slot].store(key, ordering: .releasing) }
                return
            }
            index = (index + 1) & (capacity - 1)
        }
    }

    /// A copy of every slot in a table of `capacity` slots.
    func copy(capacity: Int) -> Slots {
        let copy = Slots(capacity: capacity)
        for index in 0..<self.capacity {
            let slot = index * Self.width
            let key = words[slot].load(ordering: .relaxed)
            guard key != 0 else { continue }
            copy.store(
                key, generation: words[slot + 1].load(ordering: .relaxed),
                entry: words[slot + 2].load(ordering: .relaxed))
        }
        return copy
    }
}
