/// One element contributed to a collection key.
struct Contribution: @unchecked Sendable {
    // @unchecked: an immutable keypath, and a `Hashable & Sendable` key boxed by `contribute`.

    let element: AnyKeyPath
    let dictionaryKey: AnyHashable?
    /// `file:line` of the call that made it.
    let site: String
}

/// A collection's contributions after every layer's edits, and the clashes found on the way.
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
