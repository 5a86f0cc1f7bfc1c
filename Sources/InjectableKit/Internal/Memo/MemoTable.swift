import CInjectableAtomics

/// What resolution remembers about each key, read on the fast path of every resolution
/// without a lock, a retain or a hash of the keypath: a record per key value, a slot per
/// keypath object (`Internal/README.md`, "Key record and slot").
final class MemoTable: @unchecked Sendable {
    // @unchecked: the atomics are atomics; everything else is guarded by `lock`.
    // NB: @exclusivity(unchecked) on the state `lock` guards: the lock already keeps accesses
    // apart, and the run-time check costs a thread-local lookup on every access.

    /// What ``entryWord(for:at:)`` returns when the keypath has no current slot (no entry
    /// address is all ones).
    static let noSlot = UInt.max

    /// The process core's generation (see ``MemoWords/process``): bumped by every change of
    /// the global overrides, so that a slot's "no override here" can be trusted.
    static var generation: AtomicWord { MemoWords.process.generation }
    /// How many reasons there are, in any task, for resolution to step off its fast path:
    /// `Injections.withOverrides` layers put in effect, counted in units of ``layerDetour``;
    /// and, in ones, frames open and instances being built (whose dependencies are recorded),
    /// the trace or graph recording being on, running tests' layers watched. While there are
    /// none, the fast path reads no thread-local or task-local state.
    private static var detours: AtomicWord { AtomicWord(static: IK_MEMO_DETOURS) }

    /// What a layer in effect adds to `detours`: the upper half of the word, so that a
    /// resolution outside any layer while only layers are in effect elsewhere asks no more
    /// than whether it is in one (`Resolver.detour`).
    static let layerDetour = UInt(1) << (UInt.bitWidth / 2)

    /// Whether any reason to step off the fast path exists (see `detours`).
    @inline(__always)
    static var hasDetours: Bool { detours.loadRelaxed() != 0 }

    /// Whether a reason other than layers in effect exists.
    static var hasDetoursBesideLayers: Bool { detours.loadRelaxed() & (layerDetour - 1) != 0 }

    static func beginDetour(_ reason: UInt = 1) {
        detours.wrappingAddRelaxed(reason)
    }

    static func endDetour(_ reason: UInt = 1) {
        let before = detours.wrappingSubtractRelaxed(reason)
        let counted = reason == layerDetour ? before / layerDetour : before % layerDetour
        assert(counted > 0, "InjectableKit: more detours ended than began")
    }

    /// The entry word recorded for `keyPath` in the process core's table (an entry's address,
    /// with ``viewFlag`` if the keypath reads the entry's view; ``plainGetter``; or 0 for a
    /// getter), if its slot was recorded at `generation`; ``noSlot`` otherwise. Read from the
    /// words at fixed addresses: no lazily made object on the way.
    @inline(__always)
    static func entryWord(for keyPath: AnyKeyPath, at generation: UInt64) -> UInt {
        entryWord(for: keyPath, at: generation, in: MemoWords.process)
    }

    /// ``entryWord(for:at:)`` in the table that publishes to `words`.
    @inline(__always)
    static func entryWord(
        for keyPath: AnyKeyPath, at generation: UInt64, in words: MemoWords
    ) -> UInt {
        let bits = words.current.loadAcquiring()
        guard bits != 0 else { return noSlot }
        let table = Unmanaged<Slots>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        return table._withUnsafeGuaranteedRef {
            $0.entryWord(for: address(of: keyPath), at: UInt(truncatingIfNeeded: generation))
        }
    }

    /// One key: every keypath object equal to it that has a slot, and what was last remembered.
    final class KeyRecord {
        var objects: [AnyKeyPath] = []
        var generation: UInt = 0
        var entryWord: UInt = 0
        /// Made the first time a global override serves the key; kept for good, as the record.
        var overrideBox: OverrideBox?
    }

    /// How many keypath objects the table gives slots to, in all and for one key.
    let limit: Int
    let keyLimit: Int
    /// Where the table publishes its current slots and reads its generation.
    let words: MemoWords
    let lock = Lock(rank: .memoTable)
    @exclusivity(unchecked) var tables: [Slots]
    /// Keys by value; each record keeps its keypath objects alive (see above).
    @exclusivity(unchecked) var records: [KeyOrType: KeyRecord] = [:]
    @exclusivity(unchecked) var recordsByObject: [ObjectIdentifier: KeyRecord] = [:]
    /// Keypath objects resolved once and not yet given a slot, kept alive so that their
    /// identity is not reused; emptied when it reaches `seenLimit`. A keypath literal's object
    /// is resolved again and then gets its slot; a keypath with arguments, a new object at each
    /// evaluation, never does, and is let go.
    @exclusivity(unchecked) var seenOnce: [ObjectIdentifier: AnyKeyPath] = [:]
    static let seenLimit = 4096
    @exclusivity(unchecked) var objectCount = 0
    /// Every entry a slot has pointed to, kept alive so that readers, who do not retain what
    /// they read, never see a freed one.
    @exclusivity(unchecked) private var kept: Set<ObjectIdentifier> = []
    @exclusivity(unchecked) private var keptEntries: [Entry] = []

    /// A table that publishes to `words`: the process's (``MemoWords/process``), which the fast
    /// path reads, or words a test allocated for a table of its own.
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
        lock.withLock { kept.contains(ObjectIdentifier(entry)) }
    }

    /// Records what the framed path learned about `keyPath`'s key, for every call site of it:
    /// the getter, or the entry that holds the key's instance. The memo keeps every entry it
    /// has named alive for good (readers do not retain what they read).
    func remember(_ keyPath: AnyKeyPath, _ route: Route, generation: UInt64) {
        update(keyPath, generation: generation) { _ in
            if case .entry(let unmanaged, _) = route {
                let entry = unmanaged.takeUnretainedValue()
                if kept.insert(ObjectIdentifier(entry)).inserted { keptEntries.append(entry) }
            }
            return route
        }
    }

    /// Records that a global override serves `keyPath`'s key, in the key's box.
    ///
    /// The override is put in the box only if `generation` is still the current one (read
    /// under `lock`, which ``forgetOverrides()`` takes after the generation moved): so a box
    /// never keeps an override that a change has replaced.
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

    /// Writes the route `learn` gives (under `lock`) to `keyPath`'s record and every slot of
    /// it, unless the record already holds a newer generation, or `learn` gives nothing.
    private func update(
        _ keyPath: AnyKeyPath, generation: UInt64, _ learn: (KeyRecord) -> Route?
    ) {
        let generationWord = UInt(truncatingIfNeeded: generation)
        var evicted: [ObjectIdentifier: AnyKeyPath] = [:]
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

    /// Whether remembering what a resolution through `keyPath` learned would record it: the
    /// object has a slot, or was resolved once before. A first resolution is noted instead, so
    /// that the framed path works out what to remember only from an object's second one.
    func remembers(_ keyPath: AnyKeyPath) -> Bool {
        let object = ObjectIdentifier(keyPath)
        var evicted: [ObjectIdentifier: AnyKeyPath] = [:]
        defer { withExtendedLifetime(evicted) {} }  // released outside the lock
        return lock.withLock {
            if recordsByObject[object] != nil { return true }
            if seenOnce.count >= Self.seenLimit, seenOnce[object] == nil {
                swap(&evicted, &seenOnce)
            }
            // Noted unless seen before, with one look-up.
            var seen = true
            func firstSighting() -> AnyKeyPath {
                seen = false
                return keyPath
            }
            func keep(_: inout AnyKeyPath) {}
            keep(&seenOnce[object, default: firstSighting()])
            return seen
        }
    }

    /// Keeps `keyPath`'s object among those resolved once. Call with `lock` locked.
    private func noteFirstSighting(
        of keyPath: AnyKeyPath, evicting evicted: inout [ObjectIdentifier: AnyKeyPath]
    ) {
        if seenOnce.count >= Self.seenLimit { swap(&evicted, &seenOnce) }
        seenOnce[ObjectIdentifier(keyPath)] = keyPath
    }

    /// The record of `keyPath`'s key, giving the object a slot if it has none, this is its
    /// second resolution, and the bounds allow; `nil` otherwise. Call with `lock` locked.
    private func record(
        for keyPath: AnyKeyPath, evicting evicted: inout [ObjectIdentifier: AnyKeyPath]
    ) -> KeyRecord? {
        let object = ObjectIdentifier(keyPath)
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
        recordsByObject[ObjectIdentifier(keyPath)] = record
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

    /// The key of `keyPath`'s slot.
    @inline(__always)
    static func address(of keyPath: AnyKeyPath) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(keyPath).toOpaque())
    }
}

/// The two words a memo table publishes to its readers: the address of its current slots, and
/// the generation its slots are checked against.
struct MemoWords {
    let current: AtomicWord
    let generation: AtomicWord

    /// The process core's words, kept in the C target at fixed addresses, so that the fast path
    /// reads them without a lazily made object's check.
    static var process: MemoWords {
        MemoWords(
            current: AtomicWord(static: IK_MEMO_CURRENT),
            generation: AtomicWord(static: IK_MEMO_GENERATION))
    }
}
