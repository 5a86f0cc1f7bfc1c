/// Which cached instances were built from which keys and instances, so that dropping one drops
/// what was built from it: a cached `parent` built with `leaf` is rebuilt once `leaf` is
/// overridden, or its scope reset, instead of keeping the stale child.
///
/// Edges are recorded while an entry builds its instance: every resolution nested in that
/// build takes the framed path (the memo's common path steps aside while any build is in
/// progress), and each one's exit records that the entry depends on the resolved key, its type
/// and, when it has one, its entry. Outside builds this costs nothing; a build pays a lock and
/// a hash per dependency.
final class DependencyIndex: @unchecked Sendable {
    // @unchecked: every dictionary is guarded by `lock`.
    static let shared = DependencyIndex()

    private struct Dependents {
        var entries: [ObjectIdentifier: WeakEntry] = [:]

        mutating func insert(_ entry: Entry) {
            entries[ObjectIdentifier(entry)] = WeakEntry(entry: entry)
        }
    }

    private struct WeakEntry {
        weak var entry: Entry?
    }

    // NB: @exclusivity(unchecked): `lock` already keeps accesses apart (see `ScopeStorage`).
    private let lock = Lock()
    @exclusivity(unchecked) private var byKey: [AnyKeyPath: Dependents] = [:]
    @exclusivity(unchecked) private var byType: [ObjectIdentifier: Dependents] = [:]
    @exclusivity(unchecked) private var byEntry: [ObjectIdentifier: Dependents] = [:]

    /// Records that `dependent`'s instance was built from a resolution of `key`.
    func record(_ dependent: Entry, key: AnyKeyPath, type: ObjectIdentifier, entry: Entry?) {
        lock.withLock {
            byKey[key, default: Dependents()].insert(dependent)
            byType[type, default: Dependents()].insert(dependent)
            if let entry, entry !== dependent {
                byEntry[ObjectIdentifier(entry), default: Dependents()].insert(dependent)
            }
        }
    }

    /// Every entry built, directly or through others, from `keys`, `types` or `entries`.
    func dependents(
        ofKeys keys: Set<AnyKeyPath> = [], types: Set<ObjectIdentifier> = [], entries: [Entry]
    ) -> [Entry] {
        lock.withLock {
            // The common case, nothing was built from what is dropped, allocates nothing.
            guard
                keys.contains(where: { byKey[$0] != nil })
                    || types.contains(where: { byType[$0] != nil })
                    || entries.contains(where: { byEntry[ObjectIdentifier($0)] != nil })
            else { return [] }
            var found: [ObjectIdentifier: Entry] = [:]
            var pending: [Entry] = entries
            func add(_ dependents: Dependents?) {
                guard let dependents else { return }
                for weak in dependents.entries.values {
                    guard let entry = weak.entry, found[ObjectIdentifier(entry)] == nil else {
                        continue
                    }
                    found[ObjectIdentifier(entry)] = entry
                    pending.append(entry)
                }
            }
            for key in keys { add(byKey[key]) }
            for type in types { add(byType[type]) }
            while let entry = pending.popLast() {
                add(byEntry[ObjectIdentifier(entry)])
            }
            return Array(found.values)
        }
    }
}
