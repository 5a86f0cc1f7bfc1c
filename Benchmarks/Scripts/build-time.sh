#!/usr/bin/env bash
# Build time of an app module that uses the library, against the same module written as direct
# code: CPU seconds (user + system, the compiler's child processes included) to rebuild the
# module alone, in release and in debug, and their ratio, measured in one run.
#
# Generates two modules of $keys keys each (default 1,000), over 10 files of declarations and 10
# of consumers, as an app spreads them: each key a class, and a consumer class that uses it.
# `Injected` declares each key in `extension Injections` (`cached(ServiceN())`) and each consumer
# injects it (`@Injectable(\.serviceN) var service`); `Direct` keeps each service in a static
# `let` that its consumer reads. The library and the generated package's build plan are built
# first, then each round rebuilds each module after touching its files (interleaved, so that a
# slower moment of a shared machine falls on both); a no-op build's CPU time (the build system's
# own) is measured in the same rounds and taken off. The table shows the median round.
#
# Linux only: the CPU times are read from /proc.
#
# Usage: Benchmarks/Scripts/build-time.sh [keys] [rounds]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
keys=${1:-1000}
rounds=${2:-3}
files=10

mkdir -p "$work/Sources/Injected" "$work/Sources/Direct"
cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "BuildTime",
    dependencies: [.package(name: "InjectableKit", path: "$root")],
    targets: [
        .target(name: "Injected", dependencies: [.product(name: "InjectableKit", package: "InjectableKit")]),
        .target(name: "Direct"),
    ],
    swiftLanguageModes: [.v6]
)
EOF

# The lines of file $2 (0..<files) of kind $1: the keys whose number is that file's.
generate() {
    local kind=$1 file=$2 i
    for ((i = file; i < keys; i += files)); do
        case $kind in
        injected-keys)
            echo "public final class Service$i: Sendable { public init() {}; public func work() -> Int { $i } }"
            echo "extension Injections { public var service$i: Service$i { cached(Service$i()) } }"
            ;;
        injected-consumers)
            echo "public final class Consumer$i {"
            echo "    @Injectable(\\.service$i) var service"
            echo "    public init() {}"
            echo "    public func run() -> Int { service.work() }"
            echo "}"
            ;;
        direct-keys)
            echo "public final class Service$i: Sendable { public init() {}; public func work() -> Int { $i } }"
            echo "extension Services { public static let service$i = Service$i() }"
            ;;
        direct-consumers)
            echo "public final class Consumer$i {"
            echo "    let service = Services.service$i"
            echo "    public init() {}"
            echo "    public func run() -> Int { service.work() }"
            echo "}"
            ;;
        esac
    done
}
for ((f = 0; f < files; f++)); do
    { echo "import InjectableKit"; generate injected-keys $f; } >"$work/Sources/Injected/Keys$f.swift"
    { echo "import InjectableKit"; generate injected-consumers $f; } >"$work/Sources/Injected/Consumers$f.swift"
    generate direct-keys $f >"$work/Sources/Direct/Keys$f.swift"
    generate direct-consumers $f >"$work/Sources/Direct/Consumers$f.swift"
done
echo "public enum Services {}" >"$work/Sources/Direct/Services.swift"

# CPU seconds of one build: user and system time of the build and every process it waited for.
cpu() {
    local started ended me=$BASHPID
    started=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$me/stat)
    "$@" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    ended=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$me/stat)
    echo $(((ended - started) * 1000 / $(getconf CLK_TCK)))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| configuration | direct (s) | InjectableKit (s) | ratio |"
echo "| --- | ---: | ---: | ---: |"
for configuration in release debug; do
    build=(swift build -c "$configuration" --package-path "$work")
    "${build[@]}" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    : >"$work/Direct" && : >"$work/Injected"
    for ((r = 0; r < rounds; r++)); do
        for module in Direct Injected; do
            idle=$(cpu "${build[@]}" --target $module)
            touch "$work"/Sources/$module/*.swift
            echo $(($(cpu "${build[@]}" --target $module) - idle)) >>"$work/$module"
        done
    done
    direct=$(median <"$work/Direct")
    injected=$(median <"$work/Injected")
    awk -v c="$configuration" -v d="$direct" -v i="$injected" \
        'BEGIN { printf "| %s | %.2f | %.2f | %.2fx |\n", c, d / 1000, i / 1000, i / d }'
done
