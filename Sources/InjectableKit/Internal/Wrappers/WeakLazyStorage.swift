/// One `@WeakLazyInjectable` property's state; its values are ``WeakBox``es.
final class WeakLazyStorage<Service>: LazyOnce, @unchecked Sendable {
    // @unchecked: `first` is written by the resolver before it publishes (invariant 2).
    private var first: WeakBox<Service>?

    /// - Parameter keyPath: A `KeyPath<Injections, Service>` or `KeyPath<Injections, Service?>`.
    override init(_ keyPath: AnyKeyPath) {
        if !isClassBound(Service.self) { Failure.notClassBound(Service.self) }
        super.init(keyPath)
    }

    override class var wrapperName: String { "@WeakLazyInjectable" }

    var value: Service? {
        if isResolved { return first.unsafelyUnwrapped.value }
        let fresh: Service?
        switch begin() {
        case .resolve: fresh = resolve()
        case .resolveInLayer: fresh = LayerTicket.run(in: takeLayer(), resolve)
        case let stored: return box(stored).value
        }
        first = WeakBox(fresh)
        end()
        return fresh
    }

    var valueIfResolved: Service? {
        settled.flatMap { box($0).value }
    }

    func assign(_ value: Service?) {
        replace(with: WeakBox(value))
    }

    /// A wrapper not read yet makes its first read instead.
    func resolveAgain() -> Service? {
        guard settled != nil else { return value }
        let fresh = resolve()
        assign(fresh)
        return fresh
    }

    /// In whichever of the wrapper's two forms it was made with.
    private func resolve() -> Service? {
        if let key = key as? KeyPath<Injections, Service> {
            return Resolver.resolve(key, token: 0, caller: nil)
        }
        return Resolver.resolve(
            unsafeDowncast(key, to: KeyPath<Injections, Service?>.self), token: 0, caller: nil)
    }

    private func box(_ read: FirstRead) -> WeakBox<Service> {
        read == .resolved
            ? first.unsafelyUnwrapped : unsafeDowncast(replacement(), to: WeakBox.self)
    }
}

/// A value held weakly: a class-bound existential's witness tables do not fit a weak reference,
/// so its bytes are kept too, unretained, and read only while the weak reference lives.
final class WeakBox<Service>: LazyHeld, @unchecked Sendable {
    // @unchecked: written only by `init`; weak references may be read on many threads at once.
    private weak var object: AnyObject?
    /// The instance as a `Service`, copied bit for bit without a retain: never released.
    private let unretained: UnsafeMutableRawPointer?

    init(_ value: Service?) {
        guard let value else {
            unretained = nil
            return
        }
        let bytes = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
        withUnsafeBytes(of: value) { bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        // A class instance, or a class-bound existential: `as AnyObject` is its object.
        object = value as AnyObject
        unretained = bytes
    }

    deinit {
        unretained?.deallocate()  // holds no reference: nothing to release
    }

    var value: Service? {
        guard let unretained, let alive = object else { return nil }
        // The bytes name `alive`, which this frame holds, so the copy's retain is sound.
        return withExtendedLifetime(alive) { unretained.load(as: Service.self) }
    }
}
