#!/usr/bin/env bash
# Instructions per resolution, counted by callgrind: figures that hold on any machine of the
# same instruction set, beside the benchmark table's nanoseconds (which vary from machine to
# machine with the cost of a locked instruction or a cache miss).
#
# Builds a small release executable against this checkout (in a temporary package, so the
# Benchmarks package keeps its dependencies), runs each scenario under callgrind with N and
# with 0 iterations, and prints (instructions at N - instructions at 0) / N. The key lives in a
# module of its own, so every call site is in another module, as in an app.
#
# Usage: Benchmarks/Scripts/instructions.sh [scenario ...]   (needs valgrind)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
iterations=20000
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    scenarios=(direct keypath-only cached application shared direct-new unique direct-chain chain
        direct-deep-chain deep-chain second-module
        override-same first-after-reset injectable-wrapper lazy-wrapper injectable-owner lazy-owner
        cached-collection cached-layer-kept cached-layer-in-effect)
fi

mkdir -p "$work/Sources/Keys" "$work/Sources/Counts"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Counts",
    dependencies: [.package(name: "InjectableKit", path: "$root")],
    targets: [
        .target(name: "Keys", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .executableTarget(
            name: "Counts",
            dependencies: ["Keys", .product(name: "InjectableKit", package: "InjectableKit")]),
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat >"$work/Sources/Keys/Keys.swift" <<'EOF'
import InjectableKit

public final class Thing: Sendable { public init() {} }

extension Injections {
    public var countCached: Thing { cached(Thing()) }
    public var countApplication: Thing { application(Thing()) }
    public var countShared: Thing { shared(Thing()) }
    public var countUnique: Thing { Thing() }
    public var countOverridden: Thing { Thing() }
    public var countReset: Thing { cached(Thing()) }
}

@inline(never) @_optimize(none) public func sink(_ thing: Thing) {}

/// A chain of three keys built anew at each resolution, each getter resolving the next (`chain`).
public final class Link: Sendable {
    let next: Link?
    public init(_ next: Link?) { self.next = next }
}

extension Injections {
    public var countChainA: Link { Link(resolve(\.countChainB)) }
    public var countChainB: Link { Link(resolve(\.countChainC)) }
    public var countChainC: Link { Link(nil) }
}

@inline(never) @_optimize(none) public func sink(_ link: Link) {}
@inline(never) @_optimize(none) public func sink(_ things: Contributions<Thing>) {}

// A collection key with two elements, contributed by the hook (`cached-collection`); the
// other scenarios run with them too, as an app's keys do beside its collections.
extension Injections {
    public var countCollection: Contributions<Thing> { cached(contributions(to: \.countCollection)) }
    public var countElementA: Thing { cached(Thing()) }
    public var countElementB: Thing { cached(Thing()) }
}

extension Injections: @retroactive AutoRegistering {
    public static func registerAllServices() {
        container.contribute(\.countElementA, to: \.countCollection)
        container.contribute(\.countElementB, to: \.countCollection)
    }
}

/// The cached key resolved from the module that declares it.
@inline(never) public func resolveInKeysModule(_ n: Int) {
    for _ in 0..<n { sink(Injections.container.resolve(\.countCached)) }
}
EOF
# A chain of 100 keys built anew at each resolution, each getter resolving the next
# (`deep-chain`): deeper than resolutions go without frames.
{
    echo "extension Injections {"
    for ((i = 0; i < 99; i++)); do echo "    public var deep$i: Link { Link(resolve(\\.deep$((i + 1)))) }"; done
    echo "    public var deep99: Link { Link(nil) }"
    echo "}"
    echo "@inline(never) public func directDeepChain(_ n: Int) -> Link { n == 0 ? Link(nil) : Link(directDeepChain(n - 1)) }"
} >>"$work/Sources/Keys/Keys.swift"
cat >"$work/Sources/Counts/main.swift" <<'EOF'
import Foundation
import InjectableKit
import Keys

enum Static { static let thing = Thing() }
/// An owner whose dependency resolves when it is made (`injectable-wrapper`).
final class EagerOwner { @Injectable(\.countApplication) var thing }
/// An owner whose dependency resolves on first read (`lazy-wrapper`).
final class LazyOwner { @LazyInjectable(\.countApplication) var thing }
@inline(never) @_optimize(none) func keep(_ keyPath: AnyKeyPath) {}
/// Hands an owner to code the optimiser cannot see into, so that the owner is really made.
@inline(never) @_optimize(none) func escape(_ owner: AnyObject) {}

let container = Injections.container
let loops: [String: (Int) -> Void] = [
    // Direct code: a static instance handed to the sink.
    "direct": { n in for _ in 0..<n { sink(Static.thing) } },
    // The same, with a keypath literal of a key in another module made and dropped: what any
    // keypath-spelled API pays at its call site.
    "keypath-only": { n in for _ in 0..<n { keep(\Injections.countCached); sink(Static.thing) } },
    "cached": { n in for _ in 0..<n { sink(container.resolve(\.countCached)) } },
    "application": { n in for _ in 0..<n { sink(container.resolve(\.countApplication)) } },
    "shared": { n in for _ in 0..<n { sink(container.resolve(\.countShared)) } },
    // Direct code making a new instance each time: what `unique` is compared with.
    "direct-new": { n in for _ in 0..<n { sink(Thing()) } },
    "unique": { n in for _ in 0..<n { sink(container.resolve(\.countUnique)) } },
    // Three instances, each made with the next: what `chain` is compared with.
    "direct-chain": { n in for _ in 0..<n { sink(Link(Link(Link(nil)))) } },
    "chain": { n in for _ in 0..<n { sink(container.resolve(\.countChainA)) } },
    // 100 levels per resolution, counted per level (two resolutions for the warm-up's 2).
    "direct-deep-chain": { n in for _ in 0..<max(n / 100, min(n, 2)) { sink(directDeepChain(99)) } },
    "deep-chain": { n in for _ in 0..<max(n / 100, min(n, 2)) { sink(container.resolve(\.deep0)) } },
    "second-module": resolveInKeysModule,
    "override-same": { n in for _ in 0..<n { sink(container.resolve(\.countOverridden)) } },
    "first-after-reset": { n in
        for _ in 0..<n {
            Injections.Scope.cached.reset()
            sink(container.resolve(\.countReset))
        }
    },
    // An owner made (its dependency resolved), the dependency read, and the owner dropped.
    "injectable-wrapper": { n in for _ in 0..<n { sink(EagerOwner().thing) } },
    // An owner made, its lazy dependency read once, and the owner dropped.
    "lazy-wrapper": { n in for _ in 0..<n { sink(LazyOwner().thing) } },
    // The same two with the owner really made (an app's owners live on: view models, services).
    "injectable-owner": { n in
        for _ in 0..<n {
            let owner = EagerOwner()
            escape(owner)
            sink(owner.thing)
        }
    },
    "lazy-owner": { n in
        for _ in 0..<n {
            let owner = LazyOwner()
            escape(owner)
            sink(owner.thing)
        }
    },
    // The cached key resolved outside any layer while a layer is kept (a preview's).
    "cached-layer-kept": { n in
        let layer = Injections.makeOverrides { $0.register(\.countUnique) { Thing() } }
        for _ in 0..<n { sink(container.resolve(\.countCached)) }
        withExtendedLifetime(layer) {}
    },
    // The same while another thread runs inside a layer (a test's, parked).
    "cached-layer-in-effect": { n in
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        Thread {
            Injections.withOverrides({ _ in }) {
                entered.signal()
                leave.wait()
            }
        }.start()
        entered.wait()
        for _ in 0..<n { sink(container.resolve(\.countCached)) }
        leave.signal()
    },
    // A cached collection of two cached elements, already built.
    "cached-collection": { n in for _ in 0..<n { sink(container.resolve(\.countCollection)) } },
]
let scenario = CommandLine.arguments[1]
let count = Int(CommandLine.arguments[2])!
guard let loop = loops[scenario] else { fatalError("unknown scenario \(scenario)") }
container.register(\.countOverridden) { Thing() }
let held = container.resolve(\.countShared)  // a shared instance stays alive while measured
loop(2)  // a call site takes the fast path from its second resolution
loop(count)
withExtendedLifetime(held) {}
EOF

# The C target's files with DWARF 4 debug information: valgrind cannot read DWARF 5's forms.
swift build -c release -Xcc -gdwarf-4 --package-path "$work" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
binary="$(swift build -c release -Xcc -gdwarf-4 --package-path "$work" --show-bin-path)/Counts"
collected() {
    # Swift seeds its hashing at random in each process, which moves dictionary probe counts by
    # tens of instructions per operation from one run to the next: a fixed seed makes the
    # counts repeatable.
    SWIFT_DETERMINISTIC_HASHING=1 \
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| scenario | instructions per operation |"
echo "| --- | ---: |"
for scenario in "${scenarios[@]}"; do
    base=$(collected "$scenario" 0)
    full=$(collected "$scenario" "$iterations")
    echo "| $scenario | $(((full - base) / iterations)) |"
done
