#!/usr/bin/env bash
# Compiles every Swift example of the "Migrating" article. Each ```swift block is a file of a
# module of its own (so that examples need not avoid each other's names, and an app's
# `@retroactive` conformance is checked as an app module sees it), built against InjectableKit
# and InjectableTesting with the manifest's settings and warnings as errors. A compiler message
# points at the article's own line. Blocks in other languages are left alone.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
article="$repo/Sources/InjectableKit/InjectableKit.docc/Migrating.md"
# In the checkout's ignored build folders, so that a second run rebuilds only what changed.
work="$repo/.build-migrating"
mkdir -p "$work"

features=$(sed -n 's/.*enableUpcomingFeature("\([A-Za-z]*\)").*/\1/p' "$repo/Package.swift")
count=$(python3 - "$article" "$work/Examples" "$repo" $features <<'PYTHON'
import os, re, shutil, sys
article, package, repo, *features = sys.argv[1:]
text = open(article).read()
blocks = []
for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
    line = text.count("\n", 0, match.start(1)) + 1
    blocks.append((line, match.group(1)))
if len(blocks) < 12:
    sys.exit(f"the article has {len(blocks)} Swift examples; expected at least 12")
shutil.rmtree(os.path.join(package, "Sources"), ignore_errors=True)
targets = []
settings = ", ".join(f'.enableUpcomingFeature("{feature}")' for feature in features)
for index, (line, body) in enumerate(blocks, 1):
    name = f"Example{index}"
    folder = os.path.join(package, "Sources", name)
    os.makedirs(folder)
    with open(os.path.join(folder, "Example.swift"), "w") as file:
        file.write(f'#sourceLocation(file: "{article}", line: {line})\n{body}')
    targets.append(
        f'.target(name: "{name}", dependencies: [kit, testing], swiftSettings: [{settings}])')
joined = ",\n        ".join(targets)
manifest = f'''// swift-tools-version: 6.2
import PackageDescription

let kit = Target.Dependency.product(name: "InjectableKit", package: "InjectableKit")
let testing = Target.Dependency.product(name: "InjectableTesting", package: "InjectableKit")
let package = Package(
    name: "MigratingExamples",
    // An app's floor: the examples use Observation (iOS 17, macOS 14), above the library's.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [.package(name: "InjectableKit", path: "{repo}")],
    targets: [
        {joined}
    ],
    swiftLanguageModes: [.v6]
)
'''
path = os.path.join(package, "Package.swift")
if not os.path.exists(path) or open(path).read() != manifest:
    open(path, "w").write(manifest)
print(len(blocks))
PYTHON
)

if output=$(swift build --package-path "$work/Examples" -Xswiftc -warnings-as-errors 2>&1); then
    echo "migrating: $count examples compiled, 0 failed"
else
    grep -E 'error|warning' <<<"$output" || echo "$output"
    echo "migrating: an example of the article does not compile (see above)"
    exit 1
fi
