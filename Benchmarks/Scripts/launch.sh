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
# deeper graph costs more per edge, as every open resolution's records grow). The random graph
# is generated twice more with each key's getter in a file of its own: with `resolve(\.key)`
# literals, and with each key's keypath written once as a constant that the getters resolve.
#
# A further module of 191 keys with no dependencies gives one key's first resolution alone, split
# into the Swift runtime's making of the call site's keypath object, the instance, and the
# library's own share: the difference between resolving all of its keys and the first half of
# them, divided by the other half, so that what a process does once (its first thread state,
# each table's first growth, which looks its key type's Hashable conformance up) is not counted.
#
# Usage: Benchmarks/Scripts/launch.sh   (needs valgrind)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
nodes=191
half_nodes=95

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

# A graph's node: a class built from its dependencies.
node_class() {
    echo "import InjectableKit"
    echo "public final class Node: @unchecked Sendable {"
    echo "    let dependencies: [Node]"
    echo "    init(_ dependencies: Node...) { self.dependencies = dependencies }"
    echo "}"
}

# A module of its own for each graph: its node classes, its keys, and its hand wiring.
generate() {
    local graph=$1 name=$2 edges=0
    mkdir -p "$work/Sources/$name"
    {
        node_class
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

# The random graph again, each key's getter in a file of its own, as an app spreads its keys
# over its features' files: an optimised build makes a keypath literal's object once per file
# (its LLVM module), so each `resolve(\.key)` in another file is another object for the
# runtime to make. Once with those literals, once with each key's keypath written once, as a
# constant that every getter resolves (see Performance.md).
generate_files() {
    local name=$1 constants=$2
    mkdir -p "$work/Sources/$name"
    {
        node_class
        if [ "$constants" = constants ]; then
            echo "extension Injections {"
            for ((i = 0; i < nodes; i++)); do
                echo "    static let key$i = \\Injections.node$i"
            done
            echo "}"
        fi
        echo "public func resolveRoot() -> AnyObject { Injections.container.resolve(\\.node$((nodes - 1))) }"
    } >"$work/Sources/$name/$name.swift"
    for ((i = 0; i < nodes; i++)); do
        local arguments=""
        for d in $(dependencies $i random); do
            if [ "$constants" = constants ]; then
                arguments="$arguments${arguments:+, }resolve(Self.key$d)"
            else
                arguments="$arguments${arguments:+, }resolve(\\.node$d)"
            fi
        done
        {
            echo "import InjectableKit"
            echo "extension Injections {"
            echo "    var node$i: Node { cached(Node($arguments)) }"
            echo "}"
        } >"$work/Sources/$name/Node$i.swift"
    done
}
generate_files Files literals
generate_files Constants constants

# 191 keys with no dependencies, each resolved once from a call site of its own: one key's
# first resolution, with no edge. The same keypath literals made and dropped without resolving
# them give what the Swift runtime charges for making each call site's keypath object, which
# any keypath-spelled API pays; the same nodes made by hand give the instances' own cost.
mkdir -p "$work/Sources/Flat"
{
    echo "import InjectableKit"
    echo "public final class Node: Sendable { public init() {} }"
    echo "extension Injections {"
    for ((i = 0; i < nodes; i++)); do echo "    public var flat$i: Node { cached(Node()) }"; done
    echo "}"
    echo "@inline(never) @_optimize(none) func keep(_ keyPath: AnyKeyPath) {}"
    echo "@inline(never) @_optimize(none) func keep(_ node: Node) {}"
    echo "nonisolated(unsafe) var made: [Node] = []"
    # Each of the three in two halves: the first, and the second after it.
    for half in 1 2; do
        if [ $half = 1 ]; then from=0 to=$half_nodes; else from=$half_nodes to=$nodes; fi
        echo "public func resolve$half() {"
        for ((i = from; i < to; i++)); do echo "    keep(Injections.container.resolve(\\.flat$i))"; done
        echo "}"
        echo "public func keyPaths$half() {"
        for ((i = from; i < to; i++)); do echo "    keep(\\Injections.flat$i)"; done
        echo "}"
        echo "public func byHand$half() {"
        echo "    made.reserveCapacity($nodes)"
        for ((i = from; i < to; i++)); do echo "    made.append(Node())"; done
        echo "}"
    done
} >"$work/Sources/Flat/Flat.swift"

mkdir -p "$work/Sources/Launch"
cat >"$work/Sources/Launch/main.swift" <<'EOF'
import Constants
import Files
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
case "files": withExtendedLifetime(Files.resolveRoot()) {}
case "constants": withExtendedLifetime(Constants.resolveRoot()) {}
case "flat-half": resolve1()
case "flat": resolve1(); resolve2()
case "flat-keypaths-half": keyPaths1()
case "flat-keypaths": keyPaths1(); keyPaths2()
case "flat-wired-half": byHand1()
case "flat-wired": byHand1(); byHand2()
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
        .target(name: "Files", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .target(name: "Constants", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .executableTarget(
            name: "Launch", dependencies: ["Dense", "Sparse", "Random", "Flat", "Files", "Constants"]),
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
    echo "| $1 ($nodes keys, $2 edges) | $3 | $4 | $(($3 / nodes)) | $(($3 / $2)) |"
}
row "dense graph" "$dense_edges" "$dense" "$dense_wired"
row "sparse graph" "$sparse_edges" "$sparse" "$sparse_wired"
row "random graph" "$random_edges" "$random" "$random_wired"
files=$(($(collected files) - start))
constants=$(($(collected constants) - start))
row "random graph, a file per key" "$random_edges" "$files" "$random_wired"
row "the same, keypath constants" "$random_edges" "$constants" "$random_wired"
# The second half's keys alone.
second=$((nodes - half_nodes))
flat=$(($(collected flat) - $(collected flat-half)))
flat_keypaths=$(($(collected flat-keypaths) - $(collected flat-keypaths-half)))
flat_wired=$(($(collected flat-wired) - $(collected flat-wired-half)))
echo
echo "| one key's first resolution, no edges ($second keys after $half_nodes, instructions per key) | |"
echo "| --- | ---: |"
echo "| InjectableKit, all of it | $((flat / second)) |"
echo "| the runtime making the call site's keypath object | $((flat_keypaths / second)) |"
echo "| the instance (by hand) | $((flat_wired / second)) |"
echo "| the library's own share | $(((flat - flat_keypaths - flat_wired) / second)) |"
