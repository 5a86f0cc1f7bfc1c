/// A change a `withOverrides` layer makes to one collection: an element added, or one removed.
enum CollectionEdit: @unchecked Sendable {
    // @unchecked: the keypaths and dictionary keys are immutable (see `Contribution`).
    case add(Contribution)
    case removeElement(AnyKeyPath)
    case removeKey(AnyHashable)
}

extension AssembledContributions {
    mutating func apply(_ edits: [CollectionEdit]) {
        for edit in edits {
            switch edit {
            case .add(let contribution): append(contribution)
            case .removeElement(let element): remove(element: element)
            case .removeKey(let key): remove(dictionaryKey: key)
            }
        }
    }
}

/// The edits each live layer made to each collection, each list including those of the
/// enclosing layers at the time (so the nearest layer's list is the one in effect), kept to
/// compose the layer's next edit with them.
///
/// Resolution does not read this table: each edit registers, in its layer, an override of the
/// collection key that carries the whole list (`EditsInEffect`), so a layer revived for a lazy
/// wrapper (`LayerTicket`), which copies the overrides, keeps the edits too.
///
/// Its lock is taken alone: nothing else is locked while it is held, and no user code runs.
final class LayerEdits: @unchecked Sendable {
    // @unchecked: `entries` is guarded by `lock`.

    static let shared = LayerEdits()

    private struct Entry {
        /// Weak, so that the table does not keep a layer alive; an entry whose layer is gone is
        /// never read (its address may be reused) and is pruned by the next `set`.
        weak var layer: OverrideRegistry?
        var edits: [AnyKeyPath: [CollectionEdit]] = [:]
    }

    private let lock = Lock()
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var entries: [ObjectIdentifier: Entry] = [:]

    /// The edits of `collection` in effect in `layer`: those of the nearest layer of its chain
    /// that made any.
    func edits(of collection: AnyKeyPath, in layer: OverrideRegistry) -> [CollectionEdit] {
        let chain = layer.chain.filter(\.isLayer)
        return lock.withLock {
            for registry in chain {
                guard let entry = entries[ObjectIdentifier(registry)], entry.layer === registry,
                    let edits = entry.edits[collection]
                else { continue }
                return edits
            }
            return []
        }
    }

    /// Records `edits` as `collection`'s in `layer`.
    func set(_ edits: [CollectionEdit], of collection: AnyKeyPath, in layer: OverrideRegistry) {
        let pruned: [Entry] = lock.withLock {
            var pruned: [Entry] = []
            for (id, entry) in entries where entry.layer == nil {
                pruned.append(entries.removeValue(forKey: id)!)
            }
            let id = ObjectIdentifier(layer)
            if entries[id]?.layer !== layer { entries[id] = Entry(layer: layer) }
            entries[id]?.edits[collection] = edits
            return pruned
        }
        _ = pruned  // released here, after the lock
    }
}

/// The edits a layer's override of a collection key makes visible to the key's getter while
/// the override's factory calls it (`Injections.contributions(to:)` reads them).
struct EditsInEffect: @unchecked Sendable {
    // @unchecked: immutable keypaths and edits (see `CollectionEdit`).
    let collection: AnyKeyPath
    let edits: [CollectionEdit]

    @TaskLocal static var current: [EditsInEffect] = []

    /// The edits of `collection` in effect on this task.
    static func edits(of collection: AnyKeyPath) -> [CollectionEdit]? {
        current.last { $0.collection == collection }?.edits
    }
}

extension LayerEdits {
    /// Makes `edit` to `collection` in `layer`, after checking it against the contributions in
    /// effect there, and registers in the layer an override of the collection key that calls
    /// the key's own getter with the layer's edits in effect: the collection keeps its
    /// registration's scope (in the layer's caches), and the override's change drops what the
    /// layer cached from the collection before.
    static func edit<Collection>(
        _ collection: KeyPath<Injections, Collection>, with edit: CollectionEdit,
        in layer: OverrideRegistry, call: String
    ) {
        var edits = shared.edits(of: collection, in: layer)
        var assembled = AssembledContributions(
            ContributionTable.shared.contributions(to: collection))
        assembled.apply(edits)
        switch edit {
        case .add(let contribution):
            if let first = assembled.elements.first(where: { $0.clashes(with: contribution) }) {
                CollectionFailure.duplicate(first, contribution, in: KeyNames.describe(collection))
            }
        case .removeElement(let element):
            if !assembled.elements.contains(where: { $0.element == element }) {
                CollectionFailure.notContributed(call)
            }
        case .removeKey(let key):
            if !assembled.elements.contains(where: { $0.dictionaryKey == key }) {
                CollectionFailure.notContributed(call)
            }
        }
        edits.append(edit)
        shared.set(edits, of: collection, in: layer)
        let inEffect = EditsInEffect(collection: collection, edits: edits)
        let key = UncheckedKeyPath(collection)
        layer.register(
            Override<Collection> {
                EditsInEffect.$current.withValue(EditsInEffect.current + [inEffect]) {
                    Injections.container[keyPath: key.keyPath]
                }
            }, forKey: collection, attempt: "\(call), in a layer")
    }
}

/// A keypath to capture in a `@Sendable` closure.
struct UncheckedKeyPath<Value>: @unchecked Sendable {
    // @unchecked: a keypath is immutable; its arguments, if any, are `Hashable` values that
    // the keypath owns.
    let keyPath: KeyPath<Injections, Value>

    init(_ keyPath: KeyPath<Injections, Value>) {
        self.keyPath = keyPath
    }
}
