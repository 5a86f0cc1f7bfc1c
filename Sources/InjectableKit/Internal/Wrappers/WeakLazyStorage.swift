/// The state of one `@WeakLazyInjectable` property: its first value, once read, and any
/// replacing one, each in a ``WeakBox``.
final class WeakLazyStorage<Service>: LazyOnce, @unchecked Sendable {
    // @unchecked: `first` is written by the one resolver before it publishes it, and read only
    // after (see `LazyOnce`, invariant 2).
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

    /// The instance, if the first read has resolved it (or one was assigned) and it is alive,
    /// without resolving.
    var valueIfResolved: Service? {
        settled.flatMap { box($0).value }
    }

    /// Makes `value` the one every read returns from now on, held weakly (see
    /// `LazyOnce.replace`).
    func assign(_ value: Service?) {
        replace(with: WeakBox(value))
    }

    /// Resolves the key where this is called and makes the result the value every read returns
    /// from now on; a wrapper not read yet makes its first read instead.
    func resolveAgain() -> Service? {
        guard settled != nil else { return value }
        let fresh = resolve()
        assign(fresh)
        return fresh
    }

    /// Resolves the key, in whichever of the wrapper's two forms it was made with.
    private func resolve() -> Service? {
        if let key = key as? KeyPath<Injections, Service> {
            return Resolver.resolve(key, token: 0, caller: nil)
        }
        return Resolver.resolve(
            unsafeDowncast(key, to: KeyPath<Injections, Service?>.self), token: 0, caller: nil)
    }

    /// The box a settled read reads: the first value's, or the replacing one's.
    private func box(_ read: FirstRead) -> WeakBox<Service> {
        read == .resolved
            ? first.unsafelyUnwrapped : unsafeDowncast(replacement(), to: WeakBox.self)
    }
}

/// A `@WeakLazyInjectable`'s value, held weakly. Immutable once made.
///
/// The instance's object is held weakly. A class-bound existential (`any ParentType`) is the
/// object and its witness tables, which a weak reference cannot carry, so the value is also
/// kept as its bytes, without a retain, and read only while the weak reference says the object
/// is alive.
final class WeakBox<Service>: LazyHeld, @unchecked Sendable {
    // @unchecked: written only by `init`; reading a weak reference on several threads at once
    // is safe.
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

    /// The instance, retained, if it is alive.
    var value: Service? {
        guard let unretained, let alive = object else { return nil }
        // The bytes name `alive`, which this frame holds, so the copy's retain is sound.
        return withExtendedLifetime(alive) { unretained.load(as: Service.self) }
    }
}
