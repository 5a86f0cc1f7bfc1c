/// Weak references, for registries that must not keep their objects alive.
final class WeakList<Element: AnyObject>: @unchecked Sendable {
    // @unchecked: `elements` is guarded by `lock`.
    private struct Weak {
        weak var element: Element?
    }

    private let lock = Lock(rank: .leaf)
    private var elements: [Weak] = []
    /// The count at which the freed ones are next dropped.
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
