/// The elements contributed to an array collection key, in the order the contributions were
/// made: the value of a key whose getter calls
/// ``Injections/contributions(to:minimumCount:function:)-(KeyPath<Injections,Contributions<Element>>,_,_)``.
///
/// It is a random-access collection, so code iterates, maps and indexes it as an array:
///
/// ```swift
/// extension Injections {
///     public var analyticsSinks: Contributions<any AnalyticsSink> {
///         cached(contributions(to: \.analyticsSinks))
///     }
/// }
/// for sink in Injections.container.resolve(\.analyticsSinks) { sink.record("launch") }
/// ```
///
/// It is a class, so that every scope can hold it: `shared` keeps it while someone holds it,
/// and reading a cached one back costs what reading any cached instance costs. A test replaces
/// a whole collection with an array literal: `register(\.analyticsSinks) { [RecordingSink()] }`.
public final class Contributions<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The elements, in order: the collection itself is the public view of them.
    let elements: [Element]
    /// The contribution each element came from (`nil`: listed by an override), so that a
    /// layer's edits apply to whatever collection is in effect beneath them (see `LayerEdits`).
    let contributions: [Contribution?]

    /// A collection of `elements`, for an override that replaces a whole collection.
    ///
    /// - Parameter elements: The elements, in order.
    public init(_ elements: [Element]) {
        self.elements = elements
        self.contributions = Array(repeating: nil, count: elements.count)
    }

    /// The elements, in order, each with the contribution it came from.
    init(filed: [Filed<Element>]) {
        self.elements = filed.map(\.element)
        self.contributions = filed.map(\.contribution)
    }

    /// A collection of the literal's elements.
    ///
    /// - Parameter elements: The elements, in order.
    public required convenience init(arrayLiteral elements: Element...) {
        self.init(elements)
    }

    /// The first element's position: 0.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last element: the number of elements.
    public var endIndex: Int { elements.endIndex }

    /// The element at `position`.
    ///
    /// - Parameter position: A position from `startIndex` up to, not including, `endIndex`.
    public subscript(position: Int) -> Element { elements[position] }
}

// NB: @unchecked because a class's conditional `Sendable` conformance is not checked: it is
// safe because the only stored property is an immutable array of `Sendable` elements.
extension Contributions: @unchecked Sendable where Element: Sendable {}
