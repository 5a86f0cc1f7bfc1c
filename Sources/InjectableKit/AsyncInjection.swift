/// A dependency whose construction is asynchronous, and may throw: what a key returns when its
/// instance cannot be built synchronously.
///
/// A keypath cannot name an `async` property, so the key returns this small value instead, and
/// callers await its ``value()``. The compiler still checks the key and the type: the key must
/// exist, and ``value()`` has the key's type and error type.
///
/// ```swift
/// extension Injections {
///     var database: AsyncInjection<Database, any Error> {
///         application(AsyncInjection { try await Database.open(at: resolve(\.databaseURL)) })
///     }
///     var clock: AsyncInjection<NetworkClock, Never> {
///         cached(AsyncInjection { await NetworkClock.synchronized() })
///     }
/// }
///
/// let database = try await Injections.container.resolve(\.database).value()
///
/// final class FeedModel {
///     @Injectable(\.clock) var clock
///     func refresh() async { let now = await clock.value().now; … }
/// }
/// ```
///
/// Each `AsyncInjection` builds its instance once, on first call to ``value()``, however many
/// tasks ask at the same time; they all await the one construction. Scope helpers hold the
/// wrapper, so a scoped key builds once per scope lifetime: resetting the scope (or overriding
/// the key) drops the wrapper, and the next resolution builds anew. Without a helper, every
/// resolution returns a new wrapper, and so a new instance.
///
/// A construction that throws is not kept: every task awaiting it receives the error, and the
/// next call tries again.
///
/// The construction runs in a task of its own, with the overrides that were in effect when the
/// wrapper was made (its `Injections.withOverrides` layer, if any). The wrapper does not keep
/// that layer alive: if nothing else holds it by the first ``value()``, the construction runs
/// in a layer with the same overrides, whose scope caches are new, as a lazy wrapper's first
/// read does. Cancelling a task that awaits ``value()`` does not cancel the construction, which
/// other tasks may share.
///
/// Constructions that await each other in a circle (the builder of `a` awaits `b`, whose builder
/// awaits `a`) stop the process with a message that names the chain, instead of waiting forever.
/// Registrations without a scope make a new wrapper on each resolution, so a cycle through them
/// is caught by its depth instead: 256 nested constructions of such wrappers. Constructions of
/// wrappers a scope made (`cached(AsyncInjection { … })`) may nest 10,000 deep, as a chain of
/// keys with arguments does. A task the builder starts with `Task { }` and does not
/// await counts as the builder while the construction runs, so if it awaits a construction that
/// awaits this one, that is reported as a cycle although the builder would have finished: start
/// such a task with `Task.detached`.
///
/// Keys the builder resolves are not recorded as its dependencies: overriding one of them does
/// not drop a scope's cached wrapper (synchronous registrations are rebuilt). Reset the scope, or
/// override the async key itself.
public final class AsyncInjection<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: `state` is guarded by `lock`; everything else is immutable and Sendable.
    private typealias Construction = Task<Value, any Error>

    /// Until the instance is built, the state keeps the ticket of the layer the wrapper was
    /// made in, never the layer: a scope in that layer may hold this wrapper, and the layer
    /// would then keep both alive for good (see `LayerTicket`).
    private enum State {
        case idle(LayerTicket?)
        case building(Construction, AsyncBuild, LayerTicket?)
        case built(Value)
    }

    private let name: String
    /// Whether a scope made this wrapper (see `AsyncBuild.unscopedDepth`).
    private let scoped: Bool
    private let build: @Sendable () async throws(Failure) -> Value
    private let lock = Lock(rank: .leaf)
    private var state: State

    /// Makes a dependency that `build` constructs when it is first awaited.
    ///
    /// - Parameters:
    ///   - caller: The registration that makes it; leave the default. It names the key in
    ///     diagnostics.
    ///   - build: Constructs the instance. It may resolve other keys, synchronous ones with
    ///     `resolve` and asynchronous ones by awaiting their ``value()``.
    public init(
        caller: StaticString = #function,
        _ build: @escaping @Sendable () async throws(Failure) -> Value
    ) {
        self.name = "\(caller)"
        self.scoped = !ThreadState.current.buildStack.isEmpty
        self.state = .idle(LayerTicket.current)
        self.build = build
    }

    /// The instance: built by the first call, and by no other.
    ///
    /// A method rather than an `async` property: Swift 6.3 crashes compiling a read of a
    /// generic `async throws(Failure)` property where `Failure` is `Never`.
    ///
    /// - Returns: The instance.
    /// - Throws: What the construction threw, if it failed.
    public func value() async throws(Failure) -> Value {
        let (task, construction): (Construction, AsyncBuild)
        lock.word.lock()
        switch state {
        case .built(let value):
            lock.word.unlock()
            return value
        case .building(let running, let build, _):
            (task, construction) = (running, build)
        case .idle(let ticket):
            if ticket != nil, Injections.container.isSealed {
                lock.word.unlock()
                // The construction would run in a layer made before `seal()`, and so could
                // build from its overrides: refused, as a lazy wrapper's first read there is.
                // Module-qualified: inside this type, `Failure` is the error type.
                InjectableKit.Failure.sealed(
                    "value() of \\.\(name), an AsyncInjection made in a layer before seal() "
                        + "and not yet built,")
            }
            construction = AsyncBuild(name: name, parent: AsyncBuild.current, scoped: scoped)
            task = start(construction, in: ticket)
            state = .building(task, construction, ticket)
        }
        lock.word.unlock()

        let waiter = AsyncBuild.current
        construction.beginWait(by: waiter)
        defer { construction.endWait(by: waiter) }
        do {
            let value = try await task.value
            finish(task, with: value)
            return value
        } catch {
            finish(task, with: nil)
            // The task runs only `build`, which throws `Failure`.
            throw error as! Failure
        }
    }

    private func start(_ construction: AsyncBuild, in ticket: LayerTicket?) -> Construction {
        // Detached, so that the construction sees the overrides of the layer where this
        // wrapper was made rather than those of whichever task asks first. Once that layer is
        // gone, the ticket's layer with the same overrides stands in for it.
        Task.detached(priority: Task.currentPriority) { [build] in
            defer { construction.finish() }
            return try await AsyncBuild.$current.withValue(construction) {
                guard let ticket else { return try await build() }
                return try await Layers.with(ticket.layer) { try await build() }
            }
        }
    }

    private func finish(_ task: Construction, with value: Value?) {
        let replaced: State? = lock.withLock {
            guard case .building(let running, _, let ticket) = state, running == task else {
                return nil
            }
            let replaced = state
            // A failed construction is tried again, in the same layer, on the next call.
            state = value.map(State.built) ?? .idle(ticket)
            return replaced
        }
        // The ticket, and a layer it made, released after the lock: a layer's caches go with it.
        withExtendedLifetime(replaced) {}
    }
}
