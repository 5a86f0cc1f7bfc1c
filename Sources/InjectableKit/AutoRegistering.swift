/// Registers overrides once, before the first resolution or registration in the process.
///
/// Conform ``Injections`` to it in the app (or in a module that the app links) to install
/// module-level registrations, for example implementations that a feature module provides for
/// keys that a core module declares:
///
/// ```swift
/// extension Injections: @retroactive AutoRegistering {
///     public static func registerAllServices() {
///         container.register(\.analytics) { FirebaseAnalytics() }
///     }
/// }
/// ```
///
/// InjectableKit finds the conformance at run time and calls ``registerAllServices()`` once,
/// before anything else touches the container. ``Injections/reset(file:line:)`` drops its overrides with
/// the rest and calls it again before the next access, so tests start from the app's state.
/// It always registers in the global container, even when that access happens inside an
/// `Injections.withOverrides` layer.
public protocol AutoRegistering {
    /// Registers the program's module-level overrides. Called once, before the first access.
    static func registerAllServices()
}
