/// One `@LazyInjectable` property's state, shared by copies of its owner.
/// NB: not generic, read through inlinable methods: no metadata of a type made from the value's
/// (`LazyStorage<Service>`) is looked up at run time.
@usableFromInline
final class LazyStorage: LazyOnce, @unchecked Sendable {
    // @unchecked: `stored`, `boxed` are written by the resolver before it publishes (invariant 2).
    // NB: @exclusivity(unchecked): the once-state keeps the write apart from every read.
    /// The value: the instance itself, or, if `boxed`, a `LazyBox` holding it.
    @usableFromInline @exclusivity(unchecked) var stored: AnyObject?
    /// Recorded, not worked out from the type: specialised and unspecialised code may disagree
    /// on `isObjectReference`, and either may store what the other reads.
    @usableFromInline @exclusivity(unchecked) var boxed = false

    @inlinable @inline(__always)
    override init(_ key: AnyKeyPath) {
        super.init(key)
    }

    @inlinable @inline(__always)
    func keyPath<Service>(as _: Service.Type) -> KeyPath<Injections, Service> {
        unsafeDowncast(key, to: KeyPath<Injections, Service>.self)
    }

    @inlinable @inline(__always)
    func value<Service>(as _: Service.Type) -> Service {
        if isResolved { return load(as: Service.self) }
        return resolve(as: Service.self)
    }

    @inlinable
    func resolve<Service>(as _: Service.Type) -> Service {
        let value: Service
        switch begin() {
        case .resolved: return load(as: Service.self)
        case .replaced: return loadReplacement(as: Service.self)
        // Without a layer, the resolver's inlined path, as for `@Injectable`.
        case .resolve:
            // The key is this object's, which the caller keeps: read without a retain.
            value = Unmanaged.passUnretained(key)._withUnsafeGuaranteedRef {
                Resolver.resolve(
                    unsafeDowncast($0, to: KeyPath<Injections, Service>.self), token: 0,
                    caller: nil)
            }
        case .resolveInLayer: value = resolveInLayer(as: Service.self)
        }
        assert(stored == nil, "only the resolver stores the value, once")
        if isObjectReference(Service.self) {
            stored = unsafeBitCast(value, to: AnyObject.self)
        } else {
            stored = LazyBox(value)
            boxed = true
        }
        end()
        return value
    }

    /// Call once resolved (an assignment since leaves the first value stored).
    @inlinable @inline(__always)
    func load<Service>(as _: Service.Type) -> Service {
        assert(
            settled != nil && stored != nil, "the value is read once the resolver has stored it")
        let object = stored.unsafelyUnwrapped
        if boxed { return unsafeDowncast(object, to: LazyBox<Service>.self).value }
        return unsafeBitCast(object, to: Service.self)
    }

    @inlinable
    func valueIfResolved<Service>(as _: Service.Type) -> Service? {
        switch settled {
        case .resolved: load(as: Service.self)
        case .replaced: loadReplacement(as: Service.self)
        default: nil
        }
    }

    /// Call once replaced.
    @usableFromInline
    func loadReplacement<Service>(as _: Service.Type) -> Service {
        unsafeDowncast(replacement(), to: LazyBox<Service>.self).value
    }

    @usableFromInline
    func assign<Service>(_ value: Service) {
        replace(with: LazyBox(value))
    }

    /// A wrapper not read yet makes its first read instead.
    @usableFromInline
    func resolveAgain<Service>(as _: Service.Type) -> Service {
        guard settled != nil else { return value(as: Service.self) }
        let fresh: Service = Resolver.resolve(keyPath(as: Service.self), token: 0, caller: nil)
        assign(fresh)
        return fresh
    }

    @usableFromInline
    func resolveInLayer<Service>(as _: Service.Type) -> Service {
        let key = keyPath(as: Service.self)
        return LayerTicket.run(in: takeLayer()) { Resolver.resolve(key, token: 0, caller: nil) }
    }
}

/// A value that is not one class reference, kept by a ``LazyStorage``.
@usableFromInline
final class LazyBox<Value>: LazyHeld {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
