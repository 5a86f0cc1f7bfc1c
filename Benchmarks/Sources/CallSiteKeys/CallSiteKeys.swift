import InjectableKit

// The `call-sites` scenarios' key, in a module of its own so that every call site can name it:
// two files of the benchmark executable, `CallSiteModule`, and this module. Swift makes one
// keypath object per keypath literal per LLVM module, and a release build compiles each file to
// an LLVM module of its own, so each call site hands the library its own object for this key.

/// The instance the `call-sites` key caches.
public final class CallSiteService: Sendable {
    /// Makes the instance; the key's registration calls it once, before timing.
    public init() {}
}

extension Injections {
    /// The `call-sites` key: cached, as the `cached` scenario's key is.
    public var callSiteService: CallSiteService { cached(CallSiteService()) }
}

/// Hands a resolved instance to code the optimiser cannot see into, so that the resolution is
/// not dead code (the executable's `blackHole`, for the call sites outside it). Every call site
/// calls it, so each pays the same for it.
@inline(never)
@_optimize(none)
public func callSiteSink(_ service: CallSiteService) {}

/// Resolves the `call-sites` key `iterations` times from the module that declares it:
/// `call-sites (key's module)`.
@inline(never)
public func resolveCallSiteServiceInKeysModule(_ iterations: Int) {
    for _ in 0..<iterations { callSiteSink(Injections.container.resolve(\.callSiteService)) }
}
