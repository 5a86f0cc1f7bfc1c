import InjectableKit

/// Something the customer can do from an account's screen. The accounts screen lists every
/// action that the app's feature modules contribute, and knows none of them.
public protocol AccountAction: Sendable {
    /// The action's title, as the screen lists it.
    var title: String { get }
    /// The feature module that contributed it.
    var module: String { get }
}

extension Injections {
    /// Every account action, in the order the app's hook contributes the feature modules:
    /// a collection key, built once until the cached scope is reset.
    public var accountActions: Contributions<any AccountAction> {
        cached(contributions(to: \.accountActions, minimumCount: 1))
    }
}

/// The app's module-level wiring: each feature module's contributions, in the order the
/// account screen lists them. It runs before the container's first use, in the Demo and in
/// its tests alike.
extension Injections: AutoRegistering {
    /// Makes every feature module's contributions.
    public static func registerAllServices() {
        contributeTransfersFeature()
        contributeStatementsFeature()
    }
}
