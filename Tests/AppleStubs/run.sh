#!/usr/bin/env bash
# Type-checks the library's Apple-only code on Linux: the SwiftUI file under
# `#if canImport(SwiftUI)`, and the calls into the C library, imported as Darwin under
# `#if canImport(Darwin)` (the same code as on Linux, against Darwin's signatures). Builds
# stand-in modules named SwiftUI and Darwin (SwiftUI.swift, Darwin.swift; never shipped), which makes both
# `canImport`s true, then type-checks every library source against them, as one module with
# the manifest's settings, together with SwiftUIUsage.swift (the documentation's SwiftUI
# example). The stand-ins declare only what the library calls, with Apple's signatures: a shape
# error in that code (a wrong signature, a missing requirement, an API the stand-in lacks, an
# optional where Darwin passes a non-optional) fails this script.
set -euo pipefail
cd "$(dirname "$0")/../.."

stubs=$(mktemp -d)
trap 'rm -rf "$stubs"' EXIT

for module in SwiftUI Darwin; do
    swiftc -emit-module -parse-as-library -swift-version 6 -module-name "$module" \
        -emit-module-path "$stubs/$module.swiftmodule" "Tests/AppleStubs/$module.swift"
done

# Fails unless both stand-ins are seen, so that this check cannot pass vacuously.
cat >"$stubs/StubsSeen.swift" <<'SWIFT'
#if !canImport(SwiftUI) || !canImport(Darwin)
    #error("the Apple stand-in modules were not found")
#endif
SWIFT

# The manifest's settings for the library target: Swift 6 mode and its upcoming features; its C
# target's module (the atomics) is found by its module map.
features=()
for feature in $(sed -n 's/.*enableUpcomingFeature("\([A-Za-z]*\)").*/\1/p' Package.swift); do
    features+=(-enable-upcoming-feature "$feature")
done
mapfile -t sources < <(find Sources/InjectableKit -name '*.swift' | sort)
swiftc -typecheck -parse-as-library -swift-version 6 -module-name InjectableKit \
    "${features[@]}" -warnings-as-errors -I "$stubs" -I Sources/CInjectableAtomics/include \
    "${sources[@]}" Tests/AppleStubs/SwiftUIUsage.swift "$stubs/StubsSeen.swift"
echo "apple-only code: ${#sources[@]} library files type-checked against the SwiftUI and Darwin stand-ins"
