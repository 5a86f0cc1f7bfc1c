import Synchronization

/// What resolution remembers about one keypath object: the override generation at which no
/// override applied to it, and either the scope entry that holds its instance or, for a unique
/// registration, whether its getter calls no scope helper at all (a plain getter).
final class MemoRecord: @unchecked Sendable {
    // @unchecked: the atomics are atomics; `kept` is guarded by `MemoTable`'s lock.

    /// Keeps the keypath object, whose address is the table's key, from being freed and reused.
    let keyPath: AnyKeyPath
    /// 0 until the first `remember`; generations start at 1.
    let generation = Atomic<UInt64>(0)
    /// An `Entry`'s address; or `plainGetter`; or 0 for a getter that calls helpers.
    private let entryBits = Atomic<UInt>(0)
    private static let plainGetter: UInt = 1
    /// Every entry this record has pointed to, kept alive so that readers, who do not retain
    /// what they read, never see a freed one.
    private var kept: [Entry] = []

    init(keyPath: AnyKeyPath) {
        self.keyPath = keyPath
    }

    /// The entry, read without retaining it.
    @inline(__always)
    var entry: Unmanaged<Entry>? {
        let bits = entryBits.load(ordering: .acquiring)
        guard bits != Self.plainGetter, let raw = UnsafeRawPointer(bitPattern: bits) else {
            return nil
        }
        return Unmanaged.fromOpaque(raw)
    }

    /// Whether the keypath's getter calls no scope helper (read after `entry`, which is nil).
    @inline(__always)
    var isPlainGetter: Bool {
        entryBits.load(ordering: .acquiring) == Self.plainGetter
    }

    /// Call with `MemoTable`'s lock held.
    func update(entry: Entry?, plainGetter: Bool, generation: UInt64) {
        if let entry, !kept.contains(where: { $0 === entry }) { kept.append(entry) }
        let bits =
            entry.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
            ?? (plainGetter ? Self.plainGetter : 0)
        // The entry first: a reader that sees the new generation sees the new entry too.
        entryBits.store(bits, ordering: .releasing)
        self.generation.store(generation, ordering: .releasing)
    }
}

/// A table from keypath object to `MemoRecord` that readers search without a lock, a retain or
/// a hash of the keypath: the common path of every resolution.
///
/// Records are never removed and tables never shrink; a table that fills up is copied into one
/// twice its size, and the old one is kept (readers may still be in it). Keypaths made at run
/// time with arguments are new objects each time, so a keypath equal to one already recorded
/// is not recorded again, and the table stops growing at `limit` records.
final class MemoTable: @unchecked Sendable {
    // @unchecked: `current` is atomic; everything else is guarded by `lock`.
    static let shared = MemoTable()
    static let limit = 1 << 16

    private let current: Atomic<UInt>
    private let lock = Lock()
    private var tables: [Slots]
    private var records: [ObjectIdentifier: MemoRecord] = [:]
    private var recordedKeys: Set<AnyKeyPath> = []

    private init() {
        let first = Slots(capacity: 64)
        tables = [first]
        current = Atomic(UInt(bitPattern: Unmanaged.passUnretained(first).toOpaque()))
    }

    /// The record for `keyPath`, if it has one; neither locks nor retains.
    @inline(__always)
    func record(for keyPath: AnyKeyPath) -> Unmanaged<MemoRecord>? {
        let bits = current.load(ordering: .acquiring)
        let table = Unmanaged<Slots>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        return table._withUnsafeGuaranteedRef { $0.find(address(of: keyPath)) }
    }

    /// Records what the slow path learned about `keyPath`.
    func remember(_ keyPath: AnyKeyPath, entry: Entry?, plainGetter: Bool, generation: UInt64) {
        lock.withLock {
            let id = ObjectIdentifier(keyPath)
            if let record = records[id] {
                record.update(entry: entry, plainGetter: plainGetter, generation: generation)
                return
            }
            // An equal keypath that is another object was made at run time: recording every
            // such object would grow the table without bound.
            guard records.count < Self.limit, !recordedKeys.contains(keyPath) else { return }
            let record = MemoRecord(keyPath: keyPath)
            record.update(entry: entry, plainGetter: plainGetter, generation: generation)
            records[id] = record
            recordedKeys.insert(keyPath)
            var table = tables[tables.count - 1]
            if (records.count) * 2 > table.capacity {
                table = Slots(capacity: table.capacity * 2)
                for existing in records.values where existing !== record {
                    table.insert(address(of: existing.keyPath), existing)
                }
                tables.append(table)
                table.insert(address(of: keyPath), record)
                current.store(
                    UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()),
                    ordering: .releasing)
            } else {
                table.insert(address(of: keyPath), record)
            }
        }
    }

    private func address(of keyPath: AnyKeyPath) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(keyPath).toOpaque())
    }
}

/// Open-addressing slots: a key (a keypath object's address, 0 for empty) and a record each.
/// Written only under `MemoTable`'s lock, read by anyone.
final class Slots: @unchecked Sendable {
    // @unchecked: slots are atomics; a slot's record is stored before its key (release), and
    // readers load the key first (acquire).
    let capacity: Int
    private let shift: UInt
    private let keys: UnsafeMutablePointer<Atomic<UInt>>
    private let values: UnsafeMutablePointer<Atomic<UInt>>

    init(capacity: Int) {
        precondition(capacity > 1 && capacity & (capacity - 1) == 0, "a power of two")
        self.capacity = capacity
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        keys = .allocate(capacity: capacity)
        values = .allocate(capacity: capacity)
        for index in 0..<capacity {
            (keys + index).initialize(to: Atomic(0))
            (values + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        keys.deinitialize(count: capacity)
        keys.deallocate()
        values.deinitialize(count: capacity)
        values.deallocate()
    }

    @inline(__always)
    private func start(_ key: UInt) -> Int {
        // Fibonacci hashing: the product's high bits depend on all of the address's bits.
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    func find(_ key: UInt) -> Unmanaged<MemoRecord>? {
        var index = start(key)
        while true {
            let found = keys[index].load(ordering: .acquiring)
            if found == key {
                let bits = values[index].load(ordering: .acquiring)
                return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
            }
            if found == 0 { return nil }
            index = (index + 1) & (capacity - 1)
        }
    }

    /// The table keeps no reference: `MemoTable.records` does.
    func insert(_ key: UInt, _ record: MemoRecord) {
        var index = start(key)
        while keys[index].load(ordering: .relaxed) != 0 {
            index = (index + 1) & (capacity - 1)
        }
        let bits = UInt(bitPattern: Unmanaged.passUnretained(record).toOpaque())
        values[index].store(bits, ordering: .releasing)
        keys[index].store(key, ordering: .releasing)
    }
}
