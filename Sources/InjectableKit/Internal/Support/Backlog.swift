/// Noted now, filed when asked (`Internal/README.md`, "Memory bounds").
struct Backlog<Element> {
    private(set) var elements: [Element] = []

    /// Returns whether the backlog is full, to be taken in now.
    mutating func note(_ element: Element) -> Bool {
        elements.append(element)
        return elements.count >= 4096
    }

    /// What it held, in order.
    mutating func take() -> [Element] {
        var taken: [Element] = []
        swap(&taken, &elements)
        return taken
    }
}
