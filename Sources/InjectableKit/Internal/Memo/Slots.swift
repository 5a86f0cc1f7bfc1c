import CInjectableAtomics

/// Open-addressing slots of four words: key, generation, entry word, and one unused word that
/// keeps a slot inside a cache line. Written only under `MemoTable`'s lock, read by anyone.
final class Slots: @unchecked Sendable {
    // @unchecked: slot words are only accessed atomically, ordered as README's key record 3.
    let capacity: Int
    private let shift: UInt
    private let mask: Int
    private let words: UnsafeMutablePointer<UInt>

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
            byteCount: capacity * Self.width * MemoryLayout<UInt>.stride, alignment: 64
        ).bindMemory(to: UInt.self, capacity: capacity * Self.width)
        words.initialize(repeating: 0, count: capacity * Self.width)
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

    /// `MemoTable.noSlot` unless at `generation`. Wrapping arithmetic: indices stay in bounds.
    @inline(__always)
    func entryWord(for key: UInt, at generation: UInt) -> UInt {
        var index = start(key)
        while true {
            let slot = words + index &* Self.width
            let found = ik_load_acquire(slot)
            if found == key {
                guard ik_load_acquire(slot + 1) == generation else {
                    return MemoTable.noSlot
                }
                return ik_load_acquire(slot + 2)
            }
            if found == 0 { return MemoTable.noSlot }
            index = (index &+ 1) & mask
        }
    }

    func store(_ key: UInt, generation: UInt, entry: UInt) {
        var index = start(key)
        while true {
            let slot = index * Self.width
            let found = ik_load_relaxed(words + slot)
            if found == key || found == 0 {
                ik_store_release(words + slot + 2, entry)
                ik_store_release(words + slot + 1, generation)
                if found == 0 { ik_store_release(words + slot, key) }
                return
            }
            index = (index + 1) & (capacity - 1)
        }
    }

    func copy(capacity: Int) -> Slots {
        let copy = Slots(capacity: capacity)
        for index in 0..<self.capacity {
            let slot = index * Self.width
            let key = ik_load_relaxed(words + slot)
            guard key != 0 else { continue }
            copy.store(
                key, generation: ik_load_relaxed(words + slot + 1),
                entry: ik_load_relaxed(words + slot + 2))
        }
        return copy
    }
}
