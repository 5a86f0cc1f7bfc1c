import CallSiteKeys
import InjectableKit

// A `call-sites` call site in a module other than the key's, as an app's feature module resolves
// a key its core module declares. The module makes its own keypath object for the literal.

/// Resolves the `call-sites` key `iterations` times from a second module:
/// `call-sites (module 2)`.
@inline(never)
public func resolveCallSiteServiceInModule2(_ iterations: Int) {
    for _ in 0..<iterations { callSiteSink(Injections.container.resolve(\.callSiteService)) }
}
