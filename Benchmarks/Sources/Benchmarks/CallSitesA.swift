import CallSiteKeys
import InjectableKit

// A `call-sites` call site alone in its file: a release build compiles each file to an LLVM
// module of its own, which makes its own keypath object for the literal.

/// Resolves the `call-sites` key `iterations` times from this file: `call-sites (file A)`.
@inline(never)
func resolveCallSiteServiceInFileA(_ iterations: Int) {
    for _ in 0..<iterations { callSiteSink(Injections.container.resolve(\.callSiteService)) }
}
