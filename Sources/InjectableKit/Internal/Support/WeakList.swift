/// Weak references to objects, for registries of things that must not be kept alive by it.
final class WeakList<Element: AnyObject>: @unchecked Sendable {
    // @unchecked: `elements` is guarded by `lock`.
    private struct Weak {
        weak var element: Element?
    }

    private let lock = Lock(rank: .leaf)
    private var elements: [Weak] = []
    /// How many elements the list may hold before it next drops the freed ones.
    private var sweepAt = 64

    func add(_ element: Element) {
        lock.withLock {
            if elements.count >= sweepAt {
                elements.removeAll { $0.element == nil }
                sweepAt = max(64, elements.count * 2)
            }
            elements.append(Weak(element: element))
        }
    }

    var all: [Element] {
        lock.withLock { elements.compactMap(\.element) }
    }
}
