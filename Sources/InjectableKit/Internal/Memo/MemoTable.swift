import CInjectableAtomics

/// What resolution remembers per key, read on the fast path with no lock, retain or hash
/// (`Internal/README.md`, "Key record and slot").
final class MemoTable: @unchecked Sendable {
    // @unchecked: the atomics are atomics; everything else is guarded by `lock`.
    // NB: @exclusivity(unchecked) where `lock` keeps accesses apart: the check costs a lookup.

    /// ``entryWord(for:at:in:)`` without a current slot (no entry address is all ones).
    static let noSlot = UInt.max

    /// The process core's generation, moved by every change of the global overrides.
    static var generation: AtomicWord { MemoWords.process.generation }
    /// Reasons to step off the fast path (`Internal/README.md`, "Process-wide state"): while
    /// there are none, it reads no thread-local or task-local state.
    private static var detours: AtomicWord { AtomicWord(static: IK_MEMO_DETOURS) }

    /// A layer in effect's share of `detours`: the word's upper half.
    static let layerDetour = UInt(1) << (UInt.bitWidth / 2)

    @inline(__always)
    static var hasDetours: Bool { detours.loadRelaxed() != 0 }

    /// Whether a reason other than layers in effect exists.
    static var hasDetoursBesideLayers: Bool { detours.loadRelaxed() & (layerDetour - 1) != 0 }

    static func beginDetour(_ reason: UInt = 1) {
        let before = detours.wrappingAddRelaxed(reason)
        // A half that overflowed would carry into the other: only a 32-bit word's halves can.
        precondition(
            UInt.bitWidth == 64 || count(of: reason, in: before) < layerDetour - 1,
            "InjectableKit: more than \(layerDetour - 1) reasons to leave the fast path at once")
    }

    static func endDetour(_ reason: UInt = 1) {
        let before = detours.wrappingSubtractRelaxed(reason)
        assert(count(of: reason, in: before) > 0, "InjectableKit: more detours ended than began")
    }

    /// How many detours of `reason`'s kind `word` counts: layers, or everything else.
    private static func count(of reason: UInt, in word: UInt) -> UInt {
        reason == layerDetour ? word / layerDetour : word % layerDetour
    }

    /// `keyPath`'s slot's word if recorded at `generation`, else ``noSlot``, in the table that
    /// publishes to `words`: by default the process's, at fixed addresses, with no lazily made
    /// object on the way.
    @inline(__always)
    static func entryWord(
        for keyPath: AnyKeyPath, at generation: UInt64, in words: MemoWords = .process
    ) -> UInt {
        let bits = words.current.loadAcquiring()
        guard bits != 0 else { return noSlot }
        let table = Unmanaged<Slots>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        return table._withUnsafeGuaranteedRef {
            $0.entryWord(for: address(of: keyPath), at: UInt(truncatingIfNeeded: generation))
        }
    }

    /// One key value: its objects that have slots, and what was last remembered.
    final class KeyRecord {
        var objects: [AnyKeyPath] = []
        var generation: UInt = 0
        var entryWord: UInt = 0
        /// Made the first time a global override serves the key; kept for good, as the record.
        var overrideBox: OverrideBox?
    }

    /// How many keypath objects get slots, in all and for one key.
    let limit: Int
    let keyLimit: Int
    /// Where the table publishes its current slots and reads its generation.
    let words: MemoWords
    let lock = Lock(rank: .memoTable)
    @exclusivity(unchecked) var tables: [Slots]
    /// Each record keeps its keypath objects alive.
    @exclusivity(unchecked) var records: [KeyOrType: KeyRecord] = [:]
    @exclusivity(unchecked) var recordsByObject: [KeyOrType: KeyRecord] = [:]
    /// Objects resolved once, kept so that their identity is not reused; emptied at `seenLimit`.
    @exclusivity(unchecked) var seenOnce: [KeyOrType: AnyKeyPath] = [:]
    static let seenLimit = 4096
    @exclusivity(unchecked) var objectCount = 0
    /// Every entry a slot has named, kept for good: readers do not retain what they read.
    @exclusivity(unchecked) private var kept: [KeyOrType: Entry] = [:]

    /// `words`: the process's (``MemoWords/process``), or a test's own.
    init(limit: Int, keyLimit: Int, words: MemoWords) {
        self.limit = limit
        self.keyLimit = keyLimit
        self.words = words
        tables = []
        publish(Slots(capacity: 64))
    }

    private func publish(_ table: Slots) {
        tables.append(table)
        words.current.storeReleasing(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
    }

    /// Whether a slot may name `entry`: the memo keeps it for good, and its call sites read it.
    func names(_ entry: Entry) -> Bool {
        lock.withLock { kept[KeyOrType(object: entry)] != nil }
    }

    /// Records the route the framed path learned for `keyPath`'s key, for all its call sites.
    func remember(_ keyPath: AnyKeyPath, _ route: Route, generation: UInt64) {
        update(keyPath, generation: generation) { _ in
            if case .entry(let unmanaged, _) = route {
                let entry = unmanaged.takeUnretainedValue()
                kept[KeyOrType(object: entry)] = entry
            }
            return route
        }
    }

    /// Puts the global override in the key's box if `generation` is still current (README,
    /// "Key record and slot" 7).
    func remember(_ keyPath: AnyKeyPath, override: AnyOverride, generation: UInt64) {
        var replaced: AnyOverride?
        defer { withExtendedLifetime(replaced) {} }  // released outside the lock
        update(keyPath, generation: generation) { record in
            guard generation == UInt64(words.generation.loadAcquiring()) else { return nil }
            let box = record.overrideBox ?? OverrideBox()
            record.overrideBox = box
            replaced = box.replace(with: override)
            return .override(Unmanaged.passUnretained(box))
        }
    }

    /// Writes the route `learn` gives (under `lock`) to the record and its slots, unless newer.
    private func update(
        _ keyPath: AnyKeyPath, generation: UInt64, _ learn: (KeyRecord) -> Route?
    ) {
        let generationWord = UInt(truncatingIfNeeded: generation)
        var evicted: [KeyOrType: AnyKeyPath] = [:]
        defer { withExtendedLifetime(evicted) {} }  // released outside the lock
        lock.withLock {
            guard let record = record(for: keyPath, evicting: &evicted) else { return }
            // A resolution that started before a newer one remembered may finish after it.
            guard generationWord &- record.generation < UInt.max / 2 else { return }
            guard let route = learn(record) else { return }
            let entryWord = route.word
            record.generation = generationWord
            record.entryWord = entryWord
            let table = tables[tables.count - 1]
            for object in record.objects {
                table.store(Self.address(of: object), generation: generationWord, entry: entryWord)
            }
            checkInvariants(record)
        }
    }

    /// Empties every override box: call after moving the generation on, for every change of
    /// the global overrides. Returns the overrides, to be released outside every lock.
    func forgetOverrides() -> [AnyOverride] {
        lock.withLock { records.values.compactMap { $0.overrideBox?.replace(with: nil) } }
    }

    /// Whether `remember` would record `keyPath`, noting a first sighting (README: `remembers`).
    func remembers(_ keyPath: AnyKeyPath) -> Bool {
        var evicted: [KeyOrType: AnyKeyPath] = [:]
        defer { withExtendedLifetime(evicted) {} }  // released outside the lock
        return lock.withLock {
            recordsByObject[KeyOrType(object: keyPath)] != nil
                || !noteFirstSighting(of: keyPath, evicting: &evicted)
        }
    }

    /// Keeps `keyPath`'s object among those resolved once, with one look-up; whether it was
    /// not there yet. Call with `lock` locked.
    @discardableResult
    private func noteFirstSighting(
        of keyPath: AnyKeyPath, evicting evicted: inout [KeyOrType: AnyKeyPath]
    ) -> Bool {
        let object = KeyOrType(object: keyPath)
        if seenOnce.count >= Self.seenLimit, seenOnce[object] == nil { swap(&evicted, &seenOnce) }
        var first = false
        func firstSighting() -> AnyKeyPath {
            first = true
            return keyPath
        }
        func keep(_: inout AnyKeyPath) {}
        keep(&seenOnce[object, default: firstSighting()])
        return first
    }

    /// The key's record, with a slot for the object as `remember` says, or `nil`. Call with
    /// `lock` locked.
    private func record(
        for keyPath: AnyKeyPath, evicting evicted: inout [KeyOrType: AnyKeyPath]
    ) -> KeyRecord? {
        let object = KeyOrType(object: keyPath)
        if let record = recordsByObject[object] { return record }
        guard seenOnce.removeValue(forKey: object) != nil else {
            noteFirstSighting(of: keyPath, evicting: &evicted)
            return nil
        }
        guard objectCount < limit else { return nil }
        let key = KeyOrType(key: keyPath)
        let record = records[key] ?? KeyRecord()
        guard record.objects.count < keyLimit else { return nil }
        if record.objects.isEmpty { records[key] = record }
        record.objects.append(keyPath)
        recordsByObject[KeyOrType(object: keyPath)] = record
        objectCount += 1
        if objectCount * 2 > tables[tables.count - 1].capacity {
            publish(tables[tables.count - 1].copy(capacity: tables[tables.count - 1].capacity * 2))
        }
        // A new object of a key already remembered starts where the key's other objects are.
        if record.generation != 0 {
            tables[tables.count - 1].store(
                Self.address(of: keyPath), generation: record.generation, entry: record.entryWord)
        }
        return record
    }

    @inline(__always)
    static func address(of keyPath: AnyKeyPath) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(keyPath).toOpaque())
    }
}

/// The address of a table's current slots, and the generation its slots are checked against.
struct MemoWords {
    let current: AtomicWord
    let generation: AtomicWord

    /// In the C target at fixed addresses: the fast path checks no lazily made object.
    static var process: MemoWords {
        MemoWords(
            current: AtomicWord(static: IK_MEMO_CURRENT),
            generation: AtomicWord(static: IK_MEMO_GENERATION))
    }
}
