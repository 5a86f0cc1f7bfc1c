import InjectableKit

// Call sites in a file of their own: Swift makes a keypath literal's object once per LLVM
// module, which is once per file in a debug build and in an optimised multi-threaded one, so
// these literals are other objects than the same keys' literals in the tests.

final class CallSiteService: Sendable {}

extension Injections {
    var callSiteService: CallSiteService { cached(CallSiteService()) }
    var callSitePlain: CallSiteService { CallSiteService() }
}

/// `\.callSiteService` as this file makes it.
func callSiteServiceKeyElsewhere() -> KeyPath<Injections, CallSiteService> {
    \.callSiteService
}

/// `\.callSitePlain` as this file makes it.
func callSitePlainKeyElsewhere() -> KeyPath<Injections, CallSiteService> {
    \.callSitePlain
}

/// Resolves `\.callSiteService` from this file's call site.
func resolveCallSiteServiceElsewhere() -> CallSiteService {
    Injections.container.resolve(\.callSiteService)
}
