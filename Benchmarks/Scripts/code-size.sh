#!/usr/bin/env bash
# Bytes of machine code per call site, for direct construction, InjectableKit, Swinject and
# swift-dependencies. Prints a Markdown table. Run from anywhere:
#
#     bash Benchmarks/Scripts/code-size.sh
#
# For each library it generates a small Swift module three times, in a throwaway SwiftPM
# package (in Benchmarks/.build/code-size, or $CODE_SIZE_DIR, so that a second run is
# incremental):
#
#   <Library>Keys    1,000 keys (types, and the library's registrations or keys), no call site;
#   <Library>Sites   the same keys and 1,000 call sites, one per key, each in a public function of
#                    its own: `public func siteN() { blackHole(<resolve keyN>) }`;
#   <Library>Sites2  the same keys and 2,000 call sites, two per key (in the same file).
#
# It builds them in release (whole-module, one object file per source file) and sums the sizes
# of the `.text` sections (the code; one section per public function, the rest together) of
# each module's object files. It reports, per library:
#
#   bytes per call site              (text of Sites - text of Keys) / 1,000: what the first call
#                                    site of a key in a file adds, with the code the file makes
#                                    once per key it uses (keypath accessors, specialisations);
#   bytes per further site of a key  (text of Sites2 - text of Sites) / 1,000: what each further
#                                    site of a key that the file already uses adds.
#
# Each site's function entry and return are counted, the same in every row (the direct row
# shows them around a trivial call). The modules are built with LLVM's function merging off:
# it would fold sites that differ only in constants into one body and a thunk each, which a call
# site among other code in a real function never is. Data (keypath patterns, metadata, unwind
# tables) is not counted.
#
# The peers are pinned to the versions Benchmarks/Package.swift pins (its lines are copied), and
# InjectableKit is the working tree around Benchmarks. The first run builds the dependencies (a
# few minutes on two cores); `Dependencies` needs no macros, so swift-syntax is not built.
set -euo pipefail

scripts=$(cd "$(dirname "$0")" && pwd)
benchmarks=$(dirname "$scripts")
root=$(dirname "$benchmarks")
work=${CODE_SIZE_DIR:-$benchmarks/.build/code-size}
count=1000

libraries=(Direct InjectableKit Swinject Dependencies)

# The peers' package lines, exactly as Benchmarks/Package.swift writes them.
peers=$(grep -E '\.package\(url: .*exact:' "$benchmarks/Package.swift")
[[ $(grep -c . <<<"$peers") == 2 ]] || {
    echo "code-size.sh: expected two pinned peers in Benchmarks/Package.swift" >&2
    exit 1
}

# What each library's module imports and which product it needs.
import_of() {
    case $1 in
        Direct) echo "" ;;
        InjectableKit) echo "import InjectableKit" ;;
        Swinject) echo "import Swinject" ;;
        Dependencies) echo "import Dependencies" ;;
    esac
}
product_of() {
    case $1 in
        Direct) echo "" ;;
        InjectableKit) echo '.product(name: "InjectableKit", package: "InjectableKit")' ;;
        Swinject) echo '.product(name: "Swinject", package: "Swinject")' ;;
        Dependencies) echo '.product(name: "Dependencies", package: "swift-dependencies")' ;;
    esac
}

# The keys: the types every library resolves, the library's declarations, and the sink.
keys() {
    local library=$1 i
    import_of "$library"
    cat <<'EOF'

/// Hands a value to code the optimiser cannot see into.
@inline(never)
@_optimize(none)
public func blackHole(_ value: AnyObject) {}

EOF
    for ((i = 0; i < count; i++)); do
        echo "public final class Key$i: Sendable { public init() {} }"
    done
    case $library in
        InjectableKit)
            echo "extension Injections {"
            for ((i = 0; i < count; i++)); do
                echo "    public var key$i: Key$i { application(Key$i()) }"
            done
            echo "}"
            ;;
        Swinject)
            echo "nonisolated(unsafe) public let container = Container()"
            echo "public func registerAll() {"
            for ((i = 0; i < count; i++)); do
                echo "    container.register(Key$i.self) { _ in Key$i() }.inObjectScope(.container)"
            done
            echo "}"
            ;;
        Dependencies)
            for ((i = 0; i < count; i++)); do
                echo "private enum Key${i}Key: DependencyKey { static var liveValue: Key$i { Key$i() } }"
            done
            echo "extension DependencyValues {"
            for ((i = 0; i < count; i++)); do
                echo "    public var key$i: Key$i {"
                echo "        get { self[Key${i}Key.self] }"
                echo "        set { self[Key${i}Key.self] = newValue }"
                echo "    }"
            done
            echo "}"
            ;;
    esac
}

# One call site of key `$2`, in a function named `$3`.
site() {
    local library=$1 i=$2 name=$3
    case $library in
        Direct) echo "public func $name() { blackHole(Key$i()) }" ;;
        InjectableKit)
            echo "public func $name() { blackHole(Injections.container.resolve(\\.key$i)) }"
            ;;
        Swinject) echo "public func $name() { blackHole(container.resolve(Key$i.self)!) }" ;;
        Dependencies)
            echo "public func $name() {"
            echo "    @Dependency(\\.key$i) var value"
            echo "    blackHole(value)"
            echo "}"
            ;;
    esac
}

# `$2` call sites per key.
sites() {
    local library=$1 perKey=$2 i
    import_of "$library"
    echo
    for ((i = 0; i < count; i++)); do
        site "$library" "$i" "site$i"
        if ((perKey == 2)); then site "$library" "$i" "site${i}Again"; fi
    done
}

# Writes $1 only if its content changed, so that a second run rebuilds nothing.
write() {
    local path=$1 text
    text=$(cat)
    if [[ ! -f $path || $(<"$path") != "$text" ]]; then
        printf '%s\n' "$text" >"$path"
    fi
}

mkdir -p "$work/Sources/CodeSize"
echo "// Builds the code-size modules, its dependencies." | write "$work/Sources/CodeSize/CodeSize.swift"
targets=""
names=""
for library in "${libraries[@]}"; do
    product=$(product_of "$library")
    for variant in Keys Sites Sites2; do
        target=$library$variant
        mkdir -p "$work/Sources/$target"
        keys "$library" | write "$work/Sources/$target/Keys.swift"
        case $variant in
            Keys) rm -f "$work/Sources/$target/Sites.swift" ;;
            Sites) sites "$library" 1 | write "$work/Sources/$target/Sites.swift" ;;
            Sites2) sites "$library" 2 | write "$work/Sources/$target/Sites.swift" ;;
        esac
        targets+="        .target(name: \"$target\", dependencies: [$product], swiftSettings: settings),"
        targets+=$'\n'
        names+="\"$target\", "
    done
done

write "$work/Package.swift" <<EOF
// swift-tools-version: 6.1
// Generated by Benchmarks/Scripts/code-size.sh: a throwaway package, rewritten on every run.
import PackageDescription

// Each site is a function of its own, as small as a call site can be; the pass that merges
// functions that differ only in constants would fold them into one body and a thunk each, which
// a call site in a real function, among other code, never is.
let settings: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-llvm-merge-functions-pass"])]

let package = Package(
    name: "CodeSize",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "InjectableKit", path: "$root"),
$peers
    ],
    targets: [
$targets        // Depends on the others, so that building it builds them and their dependencies only
        // (building the whole package would build every target of the dependencies too).
        .target(name: "CodeSize", dependencies: [${names%, }]),
    ],
    swiftLanguageModes: [.v6]
)
EOF

echo "Building $work (release)..." >&2
swift build -c release --package-path "$work" --target CodeSize >&2

# The summed size of the `.text` sections of target $1's object files.
text_size() {
    size -A "$work"/.build/release/"$1".build/*.o \
        | awk '$1 ~ /^\.text/ { total += $2 } END { print total + 0 }'
}

echo "| library | bytes per call site | bytes per further site of a key |"
echo "| --- | ---: | ---: |"
for library in "${libraries[@]}"; do
    keysSize=$(text_size "${library}Keys")
    sitesSize=$(text_size "${library}Sites")
    sites2Size=$(text_size "${library}Sites2")
    case $library in
        Direct) name="direct construction" ;;
        Dependencies) name="swift-dependencies" ;;
        *) name=$library ;;
    esac
    awk -v name="$name" -v keys="$keysSize" -v sites="$sitesSize" -v sites2="$sites2Size" \
        -v count="$count" 'BEGIN {
            printf "| %s | %.1f | %.1f |\n", name, (sites - keys) / count, (sites2 - sites) / count
        }'
done
