/// One element contributed to a collection key: the element's own key, the dictionary key it
/// is filed under (for a dictionary collection), and where the contribution was made.
struct Contribution: @unchecked Sendable {
    // @unchecked: `element` is a keypath without arguments (a property of `Injections`) or with
    // `Hashable` arguments, immutable once made; `dictionaryKey` is a `Hashable & Sendable`
    // value, boxed by `contribute` (see `Injections+Collections.swift`).

    let element: AnyKeyPath
    let dictionaryKey: AnyHashable?
    /// `file:line` of the call that made it.
    let site: String
}

/// What a collection's contributions are after every layer's additions and removals: the
/// elements in order, and problems found on the way (an element or a dictionary key twice).
struct AssembledContributions {
    var elements: [Contribution] = []
    var duplicates: [(first: Contribution, second: Contribution)] = []

    init(_ contributions: [Contribution]) {
        for contribution in contributions { append(contribution) }
    }

    mutating func append(_ contribution: Contribution) {
        if let first = elements.first(where: { $0.clashes(with: contribution) }) {
            duplicates.append((first, contribution))
        } else {
            elements.append(contribution)
        }
    }
}

extension Contribution {
    /// Whether `other` contributes the same element, or files one under the same dictionary key.
    func clashes(with other: Contribution) -> Bool {
        element == other.element || (dictionaryKey != nil && dictionaryKey == other.dictionaryKey)
    }
}
