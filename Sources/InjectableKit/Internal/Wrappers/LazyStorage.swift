/// The state of one `@LazyInjectable` property, shared by copies of its owner.
final class LazyStorage<Service>: LazyOnce, @unchecked Sendable {
    // @unchecked: `resolved` is written by the one resolver before it publishes it, and read
    // only after (see `LazyOnce`, invariant 2); the keypath is an immutable object.
    private let key: KeyPath<Injections, Service>
    private var resolved: Service?

    init(_ keyPath: KeyPath<Injections, Service>) {
        key = keyPath
        super.init(keyPath)
    }

    var value: Service {
        if isResolved { return resolved.unsafelyUnwrapped }
        switch begin() {
        case .resolved:
            return resolved.unsafelyUnwrapped
        case .resolve(let layer):
            let value = LayerTicket.run(in: layer) {
                Resolver.resolve(key, token: 0, caller: nil)
            }
            resolved = value
            end()
            return value
        }
    }
}
