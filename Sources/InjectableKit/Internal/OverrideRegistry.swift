import Synchronization

/// A replacement factory registered for a key or a type.
class AnyOverride: @unchecked Sendable {
    // @unchecked: immutable; subclasses add only an immutable `@Sendable` closure.
}

final class Override<Value>: AnyOverride, @unchecked Sendable {
    // @unchecked: `make` is an immutable `@Sendable` closure.
    let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }
}

/// One state of the override registry: what `push()` saves and `pop()` restores.
struct Overrides {
    var byKey: [AnyKeyPath: AnyOverride] = [:]
    var byType: [ObjectIdentifier: AnyOverride] = [:]

    var isEmpty: Bool { byKey.isEmpty && byType.isEmpty }

    /// The keys and types whose override differs between `self` and `other`.
    func differences(from other: Overrides) -> (keys: Set<AnyKeyPath>, types: Set<ObjectIdentifier>)
    {
        func changed<Key>(_ mine: [Key: AnyOverride], _ theirs: [Key: AnyOverride]) -> Set<Key> {
            Set(mine.keys).union(theirs.keys).filter { mine[$0] !== theirs[$0] }
        }
        return (changed(byKey, other.byKey), changed(byType, other.byType))
    }
}

/// The overrides that tests and previews register, checked before a keypath's own getter.
///
/// Resolution reads `generation` and `isEmpty` (atomics) first, and takes the lock and hashes a
/// keypath only when some override exists and the keypath's memo record is stale.
final class OverrideRegistry: @unchecked Sendable {
    // @unchecked: `current` and `saved` are guarded by `lock`; the atomics are atomics.
    static let shared = OverrideRegistry()

    private let lock = Lock()
    private var current = Overrides()
    private var saved: [Overrides] = []
    private let emptyFlag = Atomic<Bool>(true)

    var isEmpty: Bool { emptyFlag.load(ordering: .acquiring) }

    func override<Value>(for keyPath: KeyPath<Injections, Value>) -> Override<Value>? {
        lock.withLock {
            let found = current.byKey[keyPath] ?? current.byType[ObjectIdentifier(Value.self)]
            return found as? Override<Value>
        }
    }

    func register(_ override: AnyOverride, forKey keyPath: AnyKeyPath) {
        change { $0.byKey[keyPath] = override }
    }

    func register(_ override: AnyOverride, forType type: ObjectIdentifier) {
        change { $0.byType[type] = override }
    }

    func removeOverride(forKey keyPath: AnyKeyPath) {
        change { $0.byKey[keyPath] = nil }
    }

    func removeOverride(forType type: ObjectIdentifier) {
        change { $0.byType[type] = nil }
    }

    func removeAll() {
        change { $0 = Overrides() }
    }

    /// Makes every memo record stale without changing any override.
    func invalidateMemos() {
        bumpGeneration()
    }

    /// Makes every memo slot stale. The generation lives in the memo table, which the common
    /// path reads anyway, so that it touches one shared object.
    private func bumpGeneration() {
        MemoTable.shared.generation.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    func push() {
        lock.withLock { saved.append(current) }
    }

    func pop() {
        change { current in
            if let previous = saved.popLast() { current = previous }
        }
    }

    /// Applies `update`, and drops what scopes cached for every key and type it affected, so
    /// that the next resolution sees the new state.
    ///
    /// The instances are dropped before the new state is published (the generation bump and
    /// the lock's release), so that no resolution pairs a new override with an instance an
    /// old one built. What the change lets go of (old overrides, their captures, the dropped
    /// instances) is released after the lock, since a deinit may use the container.
    private func change(_ update: (inout Overrides) -> Void) {
        var released: [Any] = []
        lock.withLock {
            let before = current
            update(&current)
            let affected = current.differences(from: before)
            if !affected.keys.isEmpty || !affected.types.isEmpty {
                for scope in Injections.Scope.all {
                    released.append(
                        scope.storage.detach { entry in
                            affected.types.contains(entry.key.type)
                                || entry.overrideType.map(affected.types.contains) ?? false
                                || entry.owner.map(affected.keys.contains) ?? false
                        })
                }
            }
            emptyFlag.store(current.isEmpty, ordering: .releasing)
            bumpGeneration()
            released.append(before)
        }
        withExtendedLifetime(released) {}
    }
}
