import InjectableKit

// Keys and call sites in a module of their own: Swift makes a keypath literal's object once per
// LLVM module (per file in an optimised multi-threaded build, per Swift module in every build),
// so the tests' literals of these keys are other objects than the ones made here.

/// A class for the call-site keys.
public final class CallSiteService: Sendable {
    /// Makes one.
    public init() {}
}

extension Injections {
    /// A cached key, resolved from this module and from the tests.
    public var callSiteService: CallSiteService { cached(CallSiteService()) }
    /// A unique key whose getter calls no helper.
    public var callSitePlain: CallSiteService { CallSiteService() }
    /// A unique key that the tests override globally.
    public var callSiteOverridden: CallSiteService { CallSiteService() }
}

/// `\.callSiteService` as this module makes it.
public func callSiteServiceKeyElsewhere() -> KeyPath<Injections, CallSiteService> {
    \.callSiteService
}

/// `\.callSitePlain` as this module makes it.
public func callSitePlainKeyElsewhere() -> KeyPath<Injections, CallSiteService> {
    \.callSitePlain
}

/// Resolves `\.callSiteService` from this module's call site.
public func resolveCallSiteServiceElsewhere() -> CallSiteService {
    Injections.container.resolve(\.callSiteService)
}

/// Resolves `\.callSiteOverridden` from this module's call site.
public func resolveCallSiteOverriddenElsewhere() -> CallSiteService {
    Injections.container.resolve(\.callSiteOverridden)
}
