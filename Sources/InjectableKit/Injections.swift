/// The registry of every dependency in a program: each one is a computed property of an
/// extension of `Injections`, and code asks for it by keypath.
///
/// A registration is an ordinary computed property whose getter builds the instance, wrapped in
/// a scope helper that says how long it lives. There is no registration step to run, and a key
/// that does not exist does not compile:
///
/// ```swift
/// import InjectableKit
///
/// extension Injections {
///     var myService: any MyServiceType { shared(MyService()) }     // while someone holds it
///     var settings: Settings { application(Settings()) }          // once per process
///     var api: APIClient { APIClient(session: resolve(\.session)) } // new every time
/// }
///
/// final class ContentViewModel {
///     @Injectable(\.myService) var service
/// }
/// let settings = Injections.container.resolve(\.settings)
/// ```
///
/// Tests and previews replace implementations through overrides, which every resolution checks
/// before the keypath's own getter: ``register(as:file:line:_:)`` by type, ``register(_:file:line:factory:)``
/// by key.
public struct Injections: Sendable {
    /// Identifies the resolution whose getter received this value (0: none). It lets a
    /// registration's helpers and nested `resolve` calls name the key being built in
    /// diagnostics.
    @usableFromInline let token: UInt64

    @usableFromInline
    init(token: UInt64) {
        self.token = token
    }

    /// The container: resolve, register overrides, reset and push/pop through it.
    ///
    /// ```swift
    /// let service = Injections.container.resolve(\.myService)
    /// Injections.container.register { MockService() as any MyServiceType }
    /// ```
    @inlinable
    public static var container: Injections { Injections(token: 0) }
}
