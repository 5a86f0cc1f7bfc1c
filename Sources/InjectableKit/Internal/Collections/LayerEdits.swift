/// A change a `withOverrides` layer makes to one collection: an element added, or one removed.
enum CollectionEdit: @unchecked Sendable {
    // @unchecked: the keypaths and dictionary keys are immutable (see `Contribution`).
    case add(Contribution)
    case removeElement(AnyKeyPath)
    case removeKey(AnyHashable)
}

extension CollectionEdit {
    /// `element` is `nil` for an element an override listed.
    func removes(_ element: AnyKeyPath?, filedUnder key: AnyHashable?) -> Bool {
        switch self {
        case .add: false
        case .removeElement(let removed): element == removed
        case .removeKey(let removed): key == removed
        }
    }

    func removes(_ contribution: Contribution) -> Bool {
        removes(contribution.element, filedUnder: contribution.dictionaryKey)
    }
}

extension AssembledContributions {
    mutating func apply(_ edits: [CollectionEdit]) {
        for edit in edits {
            if case .add(let contribution) = edit {
                append(contribution)
            } else {
                elements.removeAll(where: edit.removes)
            }
        }
    }
}

/// Each live layer's own collection edits (README, "Collection contributions"). Its lock is
/// taken alone, and no user code runs under it.
final class LayerEdits: @unchecked Sendable {
    // @unchecked: `entries` is guarded by `lock`.

    static let shared = LayerEdits()

    private struct Entry {
        /// Weak, so that the table does not keep a layer alive; an entry whose layer is gone is
        /// never read (its address may be reused) and is pruned by the next `set`.
        weak var layer: OverrideRegistry?
        var edits: [AnyKeyPath: [CollectionEdit]] = [:]
    }

    private let lock = Lock(rank: .leaf)
    // NB: @exclusivity(unchecked): `lock` keeps accesses apart (see `ScopeStorage`).
    @exclusivity(unchecked) private var entries: [ObjectIdentifier: Entry] = [:]

    /// The edits made in each layer of `layer`'s chain, outermost first.
    func edits(of collection: AnyKeyPath, in layer: OverrideRegistry) -> [[CollectionEdit]] {
        let chain = layer.chain.filter(\.isLayer).reversed()
        return lock.withLock {
            chain.map { registry in
                guard let entry = entries[ObjectIdentifier(registry)], entry.layer === registry
                else { return [] }
                return entry.edits[collection] ?? []
            }
        }
    }

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

extension LayerEdits {
    /// Checks `edit` against the contributions in effect in `layer`, then registers the override
    /// that applies the layer's edits.
    static func edit<Collection>(
        _ collection: KeyPath<Injections, Collection>, with edit: CollectionEdit,
        in layer: OverrideRegistry, call: @autoclosure () -> String
    ) {
        let chainEdits = shared.edits(of: collection, in: layer)
        var assembled = AssembledContributions(
            ContributionTable.shared.contributions(to: collection))
        assembled.apply(chainEdits.flatMap { $0 })
        if case .add(let contribution) = edit {
            if let first = assembled.elements.first(where: { $0.clashes(with: contribution) }) {
                CollectionFailure.duplicate(first, contribution, in: KeyNames.describe(collection))
            }
        } else if !assembled.elements.contains(where: edit.removes) {
            CollectionFailure.notContributed(call())
        }
        let edits = (chainEdits.last ?? []) + [edit]
        shared.set(edits, of: collection, in: layer)
        // nonisolated(unsafe): a keypath is immutable; its arguments are `Hashable` values it owns.
        nonisolated(unsafe) let key = collection
        let override = Override<Collection> {
            let beneath = Injections.container.resolve(key)
            guard let editable = beneath as? any EditableCollection else { return beneath }
            return editable.applying(edits, in: KeyNames.describe(key)) as! Collection
        }
        layer.change("\(call()), in a layer") { $0.byKey[collection] = override }
    }
}

/// A collection key's value as filed elements: its dictionary key (`nil` in an array) and the
/// contribution it came from (`nil`: an override listed it).
protocol EditableCollection {
    associatedtype Value
    var filed: [Filed<Value>] { get }
    init(filed: [Filed<Value>])
}

typealias Filed<Value> = (key: AnyHashable?, contribution: Contribution?, element: Value)

extension EditableCollection {
    /// Each element added is resolved through the container.
    func applying(_ edits: [CollectionEdit], in name: String) -> Self {
        var filed = self.filed
        for edit in edits {
            guard case .add(let contribution) = edit else {
                filed.removeAll { edit.removes($0.contribution?.element, filedUnder: $0.key) }
                continue
            }
            let contributed = filed.lazy.compactMap(\.contribution)
            if let first = contributed.first(where: { $0.clashes(with: contribution) }) {
                CollectionFailure.duplicate(first, contribution, in: name)
            }
            let element = Injections.container.resolve(
                unsafeDowncast(contribution.element, to: KeyPath<Injections, Value>.self))
            // A dictionary key an override listed an element for now files the added one.
            filed.removeAll { $0.key != nil && $0.key == contribution.dictionaryKey }
            filed.append((contribution.dictionaryKey, contribution, element))
        }
        return Self(filed: filed)
    }
}

extension Contributions: EditableCollection {
    var filed: [Filed<Element>] {
        zip(contributions, elements).map { (nil, $0, $1) }
    }
}

extension KeyedContributions: EditableCollection {
    var filed: [Filed<Element>] {
        elements.map { (AnyHashable($0.key), contributions[$0.key], $0.value) }
    }
}
