#!/usr/bin/env bash
# Instructions for a graph's first resolution in a process, counted by callgrind: what an app
# pays at launch, once per key and once per edge (a `resolve(\.dependency)` in a getter).
#
# Generates three graphs of the same 191 `cached` keys, each node a class built from its
# dependencies on earlier nodes: a dense one (up to 9 dependencies each, about 1,600 edges, the
# size of the published "dependency injection performance in Swift" graph), a sparse one (up to
# 3 each, about 560 edges), and a random one (up to 9 each, on earlier nodes chosen by a
# seeded generator, as the published graph's are). It resolves each graph's last node once, the first
# resolution in the process, and the same graph wired by hand (each node made once, kept in a
# dictionary). The process's start-up is measured alone and taken off. Each graph's count is
# also given per key and per edge (the whole count divided by either, not a split of it: a
# deeper graph costs more per edge, as every open resolution's records grow).
#
# A third module of 191 keys with no dependencies gives one key's first resolution alone, after
# first resolutions of eight other keys (so that what a process does once is not counted), split
# into the Swift runtime's making of the call site's keypath object, the instance, and the
# library's own share.
#
# Usage: Benchmarks/Scripts/launch.sh   (needs valgrind)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
nodes=191

# The dependencies of node $1 in graph $2 (dense, sparse or random), as node numbers.
dependencies() {
    local node=$1 graph=$2 most=9
    if [ "$graph" = sparse ]; then most=3; fi
    local count=$((node < most ? node : most)) k seen=" " state=$((node + 1))
    for ((k = 0; k < count; k++)); do
        local dependency=$(((node * 7 + k * 31) % node))
        if [ "$graph" = random ]; then
            # A seeded generator: any earlier node.
            state=$(((state * 1103515245 + 12345) % 2147483648))
            dependency=$((state % node))
        fi
        case "$seen" in *" $dependency "*) continue ;; esac
        seen="$seen$dependency "
        echo "$dependency"
    done
}

# A module of its own for each graph: its node classes, its keys, and its hand wiring.
generate() {
    local graph=$1 name=$2 edges=0
    mkdir -p "$work/Sources/$name"
    {
        echo "import InjectableKit"
        echo "public final class Node: @unchecked Sendable {"
        echo "    let dependencies: [Node]"
        echo "    init(_ dependencies: Node...) { self.dependencies = dependencies }"
        echo "}"
        echo "extension Injections {"
        for ((i = 0; i < nodes; i++)); do
            local arguments=""
            for d in $(dependencies $i "$graph"); do
                arguments="$arguments${arguments:+, }resolve(\\.${graph}$d)"
                edges=$((edges + 1))
            done
            echo "    public var ${graph}$i: Node { cached(Node($arguments)) }"
        done
        echo "}"
        echo "public enum Wired {"
        echo "    nonisolated(unsafe) static var made: [Int: Node] = [:]"
        for ((i = 0; i < nodes; i++)); do
            local arguments=""
            for d in $(dependencies $i "$graph"); do arguments="$arguments${arguments:+, }n$d()"; done
            echo "    static func n$i() -> Node {"
            echo "        if let node = made[$i] { return node }"
            echo "        let node = Node($arguments)"
            echo "        made[$i] = node"
            echo "        return node"
            echo "    }"
        done
        echo "    public static func root() -> AnyObject { n$((nodes - 1))() }"
        echo "}"
        echo "public func resolveRoot() -> AnyObject { Injections.container.resolve(\\.${graph}$((nodes - 1))) }"
        echo "public let edges = $edges"
    } >"$work/Sources/$name/$name.swift"
}
generate dense Dense
generate sparse Sparse
generate random Random

# 191 keys with no dependencies, each resolved once from a call site of its own: one key's
# first resolution, with no edge. The same keypath literals made and dropped without resolving
# them give what the Swift runtime charges for making each call site's keypath object, which
# any keypath-spelled API pays; the same nodes made by hand give the instances' own cost.
mkdir -p "$work/Sources/Flat"
{
    echo "import InjectableKit"
    echo "public final class Node: Sendable { public init() {} }"
    echo "extension Injections {"
    for ((i = 0; i < 8; i++)); do echo "    public var flatWarm$i: Node { cached(Node()) }"; done
    for ((i = 0; i < nodes; i++)); do echo "    public var flat$i: Node { cached(Node()) }"; done
    echo "}"
    echo "@inline(never) @_optimize(none) func keep(_ keyPath: AnyKeyPath) {}"
    echo "@inline(never) @_optimize(none) func keep(_ node: Node) {}"
    echo "/// The process's first resolutions and keypaths, whose one-time work is not a key's: its"
    echo "/// first thread state, and each table's first growth, which looks its key type's Hashable"
    echo "/// conformance up."
    echo "public func warmUp() {"
    for ((i = 0; i < 8; i++)); do
        echo "    keep(Injections.container.resolve(\\.flatWarm$i))"
        echo "    keep(\\Injections.flatWarm$i)"
    done
    echo "}"
    echo "public func resolveAll() {"
    for ((i = 0; i < nodes; i++)); do echo "    keep(Injections.container.resolve(\\.flat$i))"; done
    echo "}"
    echo "public func keyPathsOnly() {"
    for ((i = 0; i < nodes; i++)); do echo "    keep(\\Injections.flat$i)"; done
    echo "}"
    echo "nonisolated(unsafe) var made: [Node] = []"
    echo "public func byHand() {"
    echo "    made.reserveCapacity($nodes)"
    for ((i = 0; i < nodes; i++)); do echo "    made.append(Node())"; done
    echo "}"
} >"$work/Sources/Flat/Flat.swift"

mkdir -p "$work/Sources/Launch"
cat >"$work/Sources/Launch/main.swift" <<'EOF'
import Random
import Dense
import Flat
import Sparse

// The work is chosen by the first argument, so that every run loads the same binary.
switch CommandLine.arguments[1] {
case "dense": withExtendedLifetime(Dense.resolveRoot()) {}
case "dense-wired": withExtendedLifetime(Dense.Wired.root()) {}
case "sparse": withExtendedLifetime(Sparse.resolveRoot()) {}
case "sparse-wired": withExtendedLifetime(Sparse.Wired.root()) {}
case "random": withExtendedLifetime(Random.resolveRoot()) {}
case "random-wired": withExtendedLifetime(Random.Wired.root()) {}
case "flat-warm": warmUp()
case "flat": warmUp(); resolveAll()
case "flat-keypaths": warmUp(); keyPathsOnly()
case "flat-wired": warmUp(); byHand()
case "edges": print(Dense.edges, Sparse.edges, Random.edges)
default: break
}
EOF
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Launch",
    dependencies: [.package(name: "InjectableKit", path: "$root")],
    targets: [
        .target(name: "Dense", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .target(name: "Sparse", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .target(name: "Flat", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .target(name: "Random", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .executableTarget(name: "Launch", dependencies: ["Dense", "Sparse", "Random", "Flat"]),
    ],
    swiftLanguageModes: [.v6]
)
EOF

swift build -c release -Xcc -gdwarf-4 --package-path "$work" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
binary="$(swift build -c release -Xcc -gdwarf-4 --package-path "$work" --show-bin-path)/Launch"
collected() {
    # LD_BIND_NOW: the dynamic linker binds every symbol at start-up (as Apple's does), not at
    # each function's first call, which would charge the first resolution for the binding of
    # every runtime function it is the first to call.
    LD_BIND_NOW=1 SWIFT_DETERMINISTIC_HASHING=1 \
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
read -r dense_edges sparse_edges random_edges < <("$binary" edges)
start=$(collected none)
dense=$(($(collected dense) - start))
dense_wired=$(($(collected dense-wired) - start))
sparse=$(($(collected sparse) - start))
sparse_wired=$(($(collected sparse-wired) - start))
random=$(($(collected random) - start))
random_wired=$(($(collected random-wired) - start))
echo "| first resolution (instructions) | InjectableKit | by hand | per key | per edge |"
echo "| --- | ---: | ---: | ---: | ---: |"
row() {
    echo "| $1 graph ($nodes keys, $2 edges) | $3 | $4 | $(($3 / nodes)) | $(($3 / $2)) |"
}
row dense "$dense_edges" "$dense" "$dense_wired"
row sparse "$sparse_edges" "$sparse" "$sparse_wired"
row random "$random_edges" "$random" "$random_wired"
flat_warm=$(collected flat-warm)
flat=$(($(collected flat) - flat_warm))
flat_keypaths=$(($(collected flat-keypaths) - flat_warm))
flat_wired=$(($(collected flat-wired) - flat_warm))
echo
echo "| one key's first resolution, no edges ($nodes keys, instructions per key) | |"
echo "| --- | ---: |"
echo "| InjectableKit, all of it | $((flat / nodes)) |"
echo "| the runtime making the call site's keypath object | $((flat_keypaths / nodes)) |"
echo "| the instance (by hand) | $((flat_wired / nodes)) |"
echo "| the library's own share | $(((flat - flat_keypaths - flat_wired) / nodes)) |"
