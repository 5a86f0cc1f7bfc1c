/// The state of one `@WeakLazyInjectable` property.
///
/// The instance's object is held weakly. A class-bound existential (`any ParentType`) is the
/// object and its witness tables, which a weak reference cannot carry, so the value is also
/// kept as its bytes, without a retain, and read only while the weak reference says the object
/// is alive.
final class WeakLazyStorage<Service>: LazyOnce, @unchecked Sendable {
    // @unchecked: `resolve` is immutable; `object` and `unretained`'s contents are
    // written by the one resolver before it publishes them, and read only after (see
    // `LazyOnce`, invariant 2). Reading a weak reference on several threads at once is safe.
    private let resolve: () -> Service?
    private weak var object: AnyObject?
    /// The instance as a `Service`, copied bit for bit without a retain: never released.
    private let unretained = UnsafeMutableRawPointer.allocate(
        byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)

    init(_ keyPath: AnyKeyPath, _ resolve: @escaping () -> Service?) {
        if !isClassBound(Service.self) { Failure.notClassBound(Service.self) }
        self.resolve = resolve
        super.init(keyPath)
    }

    deinit {
        unretained.deallocate()  // holds no reference: nothing to release
    }

    override class var wrapperName: String { "@WeakLazyInjectable" }

    var value: Service? {
        if isResolved { return read() }
        let fresh: Service?
        switch begin() {
        case .resolved: return read()
        case .replaced: return readReplacement()
        case .resolve: fresh = resolve()
        case .resolveInLayer: fresh = LayerTicket.run(in: takeLayer(), resolve)
        }
        if let fresh { object = copyUnretained(fresh, to: unretained) }
        end()
        return fresh
    }

    /// The instance, if the first read has resolved it (or one was assigned) and it is alive,
    /// without resolving.
    var valueIfResolved: Service? {
        switch settled {
        case .resolved: read()
        case .replaced: readReplacement()
        default: nil
        }
    }

    /// Makes `value` the one every read returns from now on, held weakly (see
    /// `LazyOnce.replace`).
    func assign(_ value: Service?) {
        let released = replace(with: WeakBox(value))
        withExtendedLifetime(released) {}  // released outside the lock
    }

    /// Resolves the key where this is called and makes the result the value every read returns
    /// from now on; a wrapper not read yet makes its first read instead.
    func resolveAgain() -> Service? {
        guard settled != nil else { return value }
        let fresh = resolve()
        assign(fresh)
        return fresh
    }

    /// The replacing instance, retained, if it is alive. Call once replaced.
    private func readReplacement() -> Service? {
        unsafeDowncast(replacement(), to: WeakBox<Service>.self).value
    }

    /// The instance, retained, if it is alive. Call once the value is resolved.
    private func read() -> Service? {
        loadIfAlive(object, from: unretained)
    }
}

/// A value assigned to a `@WeakLazyInjectable`, held weakly as `WeakLazyStorage` holds its
/// first one: the object weakly, and its bytes without a retain. Immutable once made.
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
        object = copyUnretained(value, to: bytes)
        unretained = bytes
    }

    deinit {
        unretained?.deallocate()  // holds no reference: nothing to release
    }

    /// The instance, retained, if it is alive.
    var value: Service? {
        guard let unretained else { return nil }
        return loadIfAlive(object, from: unretained)
    }
}

/// Copies `value` (a class instance, or a class-bound existential) bit for bit to `bytes`,
/// without a retain, and returns its object, for the caller to hold weakly.
private func copyUnretained<Service>(_ value: Service, to bytes: UnsafeMutableRawPointer)
    -> AnyObject
{
    withUnsafeBytes(of: value) { bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    // A class instance, or a class-bound existential: `as AnyObject` is its object.
    return value as AnyObject
}

/// The value `copyUnretained` left at `bytes`, retained, if `object` (its weakly held object,
/// loaded once) is alive.
private func loadIfAlive<Service>(_ object: AnyObject?, from bytes: UnsafeMutableRawPointer)
    -> Service?
{
    guard let alive = object else { return nil }
    // The bytes name `alive`, which this frame holds, so the copy's retain is sound.
    return withExtendedLifetime(alive) { bytes.load(as: Service.self) }
}
