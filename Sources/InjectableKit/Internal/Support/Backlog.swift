/// What a table notes as resolutions make it, and files only when asked (`Internal/README.md`,
/// "Memory bounds"): noting hashes nothing; the table's owner takes the backlog in, in order,
/// under the table's lock, before each question, and once it is full.
struct Backlog<Element> {
    private(set) var elements: [Element] = []

    /// Notes `element`.
    ///
    /// - Returns: Whether the backlog is full, and to be taken in now.
    mutating func note(_ element: Element) -> Bool {
        elements.append(element)
        return elements.count >= 4096
    }

    /// Empties the backlog.
    ///
    /// - Returns: What it held, in order.
    mutating func take() -> [Element] {
        var taken: [Element] = []
        swap(&taken, &elements)
        return taken
    }
}
