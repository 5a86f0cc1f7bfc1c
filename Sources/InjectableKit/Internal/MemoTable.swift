import Synchronization

/// What resolution remembers about one keypath object, read on the common path of every
/// resolution without a lock, a retain or a hash of the keypath.
///
/// A table from keypath object address to a slot: the override generation at which no override
/// applied to the keypath, and either the scope entry that holds its instance or, for a unique
/// registration, whether its getter calls no scope helper at all (a plain getter). A slot is a
/// few words in one array, so a lookup touches one cache line.
///
/// Slots are never removed and tables never shrink; a table that fills up is copied into one
/// twice its size, and the old one is kept (readers may still be in it; its slots go stale,
/// which sends those readers down the slow path). Keypaths made at run time with arguments are
/// new objects each time, so a keypath equal to one already recorded is not recorded again,
/// and the table stops growing at `limit` keypaths.
final class MemoTable: @unchecked Sendable {
    // @unchecked: the static atomics are atomics; everything else is guarded by `lock`.
    // NB: the state the common path reads is in static atomics, which the compiler initialises
    // statically: reading them needs no `swift_once` (which `shared` does).
    static let shared = MemoTable()
    static let limit = 1 << 16

    /// The entry word of a plain getter (no entry address is 1).
    static let plainGetter: UInt = 1
    /// Set in the entry word of a keypath that reads the entry's view (see `Entry.adoptView`);
    /// an entry's address, 16-byte aligned, leaves the bit free.
    static let viewFlag: UInt = 2
    /// What ``entryWord(for:at:)`` returns when the keypath has no current slot (no entry
    /// address is all ones).
    static let noSlot = UInt.max

    /// The override registry's generation: bumped by every change of the global overrides, so
    /// that a slot's "no override here" can be trusted.
    static let generation = Atomic<UInt64>(1)
    /// How many reasons there are, in any task, for resolution to step off its common path:
    /// `Injections.withOverrides` layers alive, the trace or graph recording being on,
    /// instances being built (whose dependencies are recorded). While there are none, the
    /// common path reads no thread-local or task-local state.
    private static let detours = Atomic<Int>(0)
    /// The address of the current `Slots`, 0 until the first slot is made.
    private static let current = Atomic<UInt>(0)

    /// Whether any reason to step off the common path exists (see `detours`).
    @inline(__always)
    static var hasDetours: Bool { detours.load(ordering: .relaxed) != 0 }

    static func beginDetour() {
        detours.wrappingAdd(1, ordering: .relaxed)
    }

    static func endDetour() {
        detours.wrappingSubtract(1, ordering: .relaxed)
    }

    /// The entry word recorded for `keyPath` (an entry's address, with ``viewFlag`` if the
    /// keypath reads the entry's view; ``plainGetter``; or 0 for a getter), if its slot was
    /// recorded at `generation`; ``noSlot`` otherwise.
    @inline(__always)
    static func entryWord(for keyPath: AnyKeyPath, at generation: UInt64) -> UInt {
        let bits = current.load(ordering: .acquiring)
        guard bits != 0 else { return noSlot }
        let table = Unmanaged<Slots>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        return table._withUnsafeGuaranteedRef {
            $0.entryWord(for: address(of: keyPath), at: UInt(truncatingIfNeeded: generation))
        }
    }

    private let lock = Lock()
    private var tables: [Slots]
    /// The keypaths recorded, kept alive so that their addresses, the table's keys, are not
    /// reused; and every entry a slot has pointed to, kept alive so that readers, who do not
    /// retain what they read, never see a freed one.
    private var keyPaths: [ObjectIdentifier: AnyKeyPath] = [:]
    private var recordedKeys: Set<AnyKeyPath> = []
    private var kept: Set<ObjectIdentifier> = []
    private var keptEntries: [Entry] = []

    private init() {
        let first = Slots(capacity: 64)
        tables = [first]
        Self.current.store(
            UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque()), ordering: .releasing)
    }

    /// Records what the slow path learned about `keyPath`.
    func remember(
        _ keyPath: AnyKeyPath, entry: Entry?, view: Bool, plainGetter: Bool, generation: UInt64
    ) {
        let entryWord =
            entry.map {
                UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque())
                    | (view ? Self.viewFlag : 0)
            } ?? (plainGetter ? Self.plainGetter : 0)
        let generationWord = UInt(truncatingIfNeeded: generation)
        lock.withLock {
            if let entry, kept.insert(ObjectIdentifier(entry)).inserted {
                keptEntries.append(entry)
            }
            let key = Self.address(of: keyPath)
            var table = tables[tables.count - 1]
            if keyPaths[ObjectIdentifier(keyPath)] == nil {
                // An equal keypath that is another object was made at run time: recording every
                // such object would grow the table without bound.
                guard keyPaths.count < Self.limit, recordedKeys.insert(keyPath).inserted else {
                    return
                }
                keyPaths[ObjectIdentifier(keyPath)] = keyPath
                if keyPaths.count * 2 > table.capacity {
                    table = table.copy(capacity: table.capacity * 2)
                    tables.append(table)
                    Self.current.store(
                        UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()),
                        ordering: .releasing)
                }
            }
            table.store(key, generation: generationWord, entry: entryWord)
        }
    }

    /// The key of `keyPath`'s slot.
    @inline(__always)
    private static func address(of keyPath: AnyKeyPath) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(keyPath).toOpaque())
    }
}

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
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
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
