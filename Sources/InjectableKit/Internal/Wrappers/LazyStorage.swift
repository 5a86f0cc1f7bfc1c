/// The state of one `@LazyInjectable` property, shared by copies of its owner.
///
/// Not generic, and read through inlinable methods specialised where the wrapper is used, so
/// that neither making the storage nor reading it needs the metadata of a type made from the
/// value's (`Optional<Service>`, `LazyStorage<Service>`), which unspecialised code looks up at
/// run time on every call. A class instance is kept as its reference; any other value in a
/// ``LazyBox``. The wrapper holds only this object, whose once-state holds the key: reading the
/// property copies one reference out of the owner.
@usableFromInline
final class LazyStorage: LazyOnce, @unchecked Sendable {
    // @unchecked: `stored` and `boxed` are written by the one resolver before it publishes
    // them, and read only after (see `LazyOnce`, invariant 2).
    // NB: @exclusivity(unchecked): the once-state keeps the write apart from every read, so
    // the run-time exclusivity check (a thread-local access set lookup) would find nothing.
    /// The value: the instance itself, or, if `boxed`, a `LazyBox` holding it.
    @usableFromInline @exclusivity(unchecked) var stored: AnyObject?
    /// Recorded rather than worked out again from the type when reading: code specialised for
    /// a type and unspecialised code may not agree whether it is one class reference (see
    /// `isObjectReference`), and either may store what the other reads.
    @usableFromInline @exclusivity(unchecked) var boxed = false

    @inlinable @inline(__always)
    override init(_ key: AnyKeyPath) {
        super.init(key)
    }

    /// The key, as the type it was made with: a `KeyPath<Injections, Service>` for the
    /// `Service` every method is called with.
    @inlinable @inline(__always)
    func keyPath<Service>(as _: Service.Type) -> KeyPath<Injections, Service> {
        unsafeDowncast(key, to: KeyPath<Injections, Service>.self)
    }

    /// The value, resolved from the key by the first read.
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

    /// The stored value. Call once resolved: an assignment racing the read may have moved the
    /// state on to replaced since, and the first value stays stored (see `LazyOnce`).
    @inlinable @inline(__always)
    func load<Service>(as _: Service.Type) -> Service {
        assert(
            settled != nil && stored != nil, "the value is read once the resolver has stored it")
        let object = stored.unsafelyUnwrapped
        if boxed { return unsafeDowncast(object, to: LazyBox<Service>.self).value }
        return unsafeBitCast(object, to: Service.self)
    }

    /// The value, if the first read has stored it (or one was assigned), without resolving.
    @inlinable
    func valueIfResolved<Service>(as _: Service.Type) -> Service? {
        switch settled {
        case .resolved: load(as: Service.self)
        case .replaced: loadReplacement(as: Service.self)
        default: nil
        }
    }

    /// The replacing value. Call once replaced.
    @usableFromInline
    func loadReplacement<Service>(as _: Service.Type) -> Service {
        unsafeDowncast(replacement(), to: LazyBox<Service>.self).value
    }

    /// Makes `value` the one every read returns from now on (see `LazyOnce.replace`).
    @usableFromInline
    func assign<Service>(_ value: Service) {
        replace(with: LazyBox(value))
    }

    /// Resolves the key, where this is called, and makes the result the value every read
    /// returns from now on; a wrapper not read yet makes its first read instead.
    @usableFromInline
    func resolveAgain<Service>(as _: Service.Type) -> Service {
        guard settled != nil else { return value(as: Service.self) }
        let fresh: Service = Resolver.resolve(keyPath(as: Service.self), token: 0, caller: nil)
        assign(fresh)
        return fresh
    }

    /// Resolves `key` in the layer the wrapper was made in (see `LayerTicket`).
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
