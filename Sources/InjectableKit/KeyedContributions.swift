/// The elements contributed to a dictionary collection key, each under the key it was
/// contributed for: the value of a key whose getter calls
/// ``Injections/contributions(to:minimumCount:function:)-(KeyPath<Injections,KeyedContributions<Key,Element>>,_,_)``.
///
/// ```swift
/// extension Injections {
///     public var deepLinkHandlers: KeyedContributions<String, any DeepLinkHandler> {
///         cached(contributions(to: \.deepLinkHandlers))
///     }
/// }
/// let handler = Injections.container.resolve(\.deepLinkHandlers)["settings"]
/// ```
///
/// It is a class, so that every scope can hold it (see ``Contributions``). A test replaces a
/// whole collection with a dictionary literal: `register(\.deepLinkHandlers) { ["a": MockHandler()] }`.
public final class KeyedContributions<Key: Hashable, Element>: Sequence,
    ExpressibleByDictionaryLiteral
{
    /// The elements, by key, as a dictionary: for its `keys`, `count`, `isEmpty` and the rest
    /// of `Dictionary`'s API.
    ///
    /// ```swift
    /// let handlers = Injections.container.resolve(\.deepLinkHandlers)
    /// print(handlers.elements.keys.sorted())
    /// ```
    public let elements: [Key: Element]
    /// The contribution each contributed element came from (not those an override listed), so
    /// that a layer's edits apply to whatever collection is in effect beneath them.
    let contributions: [Key: Contribution]

    /// A collection of `elements`, for an override that replaces a whole collection.
    ///
    /// - Parameter elements: The elements, by key.
    public init(_ elements: [Key: Element]) {
        self.elements = elements
        self.contributions = [:]
    }

    /// The elements, each under its key, with the contribution it came from (if any).
    init(filed: [Filed<Element>]) {
        func key(_ entry: Filed<Element>) -> Key { entry.key.unsafelyUnwrapped.base as! Key }
        self.elements = Dictionary(uniqueKeysWithValues: filed.map { (key($0), $0.element) })
        self.contributions = Dictionary(
            uniqueKeysWithValues: filed.compactMap { entry in
                entry.contribution.map { (key(entry), $0) }
            })
    }

    /// A collection of the literal's elements.
    ///
    /// - Parameter elements: The keys and elements; each key once.
    public required convenience init(dictionaryLiteral elements: (Key, Element)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }

    /// The element contributed for `key`, if any.
    ///
    /// - Parameter key: The dictionary key.
    public subscript(key: Key) -> Element? { elements[key] }

    /// Iterates over the keys and elements, in no particular order.
    ///
    /// - Returns: An iterator of `(key, value)` pairs.
    public func makeIterator() -> Dictionary<Key, Element>.Iterator {
        elements.makeIterator()
    }
}

// NB: @unchecked because a class's conditional `Sendable` conformance is not checked: it is
// safe because the only stored property is an immutable dictionary of `Sendable` keys and
// elements.
extension KeyedContributions: @unchecked Sendable where Key: Sendable, Element: Sendable {}
