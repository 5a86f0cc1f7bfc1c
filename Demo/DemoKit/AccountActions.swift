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

extension Injections {
    /// Every feature module's contributions, in the order the account screen lists them: the
    /// app calls it from its `AutoRegistering` hook (the Demo executable's `main.swift`, and the
    /// test process's hook).
    public static func contributeDemoFeatures() {
        contributeTransfersFeature()
        contributeStatementsFeature()
    }
}
