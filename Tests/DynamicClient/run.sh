#!/usr/bin/env bash
# An app linking the dynamic library product (InjectableKitDynamic), built in debug and in
# release and run: the library's code that is inlined into an app (the resolve path, the
# wrappers' making and first read) may name only symbols the shared library exports, which
# building the product alone does not show.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/Keys" "$work/Sources/App"
cat >"$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [.package(name: "InjectableKit", path: "$repo")],
    targets: [
        .target(
            name: "Keys",
            dependencies: [.product(name: "InjectableKitDynamic", package: "InjectableKit")]),
        .executableTarget(
            name: "App",
            dependencies: [
                "Keys", .product(name: "InjectableKitDynamic", package: "InjectableKit"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
cat >"$work/Sources/Keys/Keys.swift" <<'SWIFT'
import InjectableKit

public protocol Greeting: AnyObject, Sendable { var text: String { get } }
public final class Hello: Greeting { public let text = "hello"; public init() {} }
public final class Parent: Sendable { public init() {} }

extension Injections {
    public var greeting: any Greeting { cached(Hello()) }
    public var appGreeting: any Greeting { application(Hello()) }
    public var sharedGreeting: any Greeting { shared(Hello()) }
    public var parent: Parent { cached(Parent()) }
}
SWIFT
cat >"$work/Sources/App/main.swift" <<'SWIFT'
import InjectableKit
import Keys

final class Mock: Greeting { let text = "mock" }

final class Screen {
    @Injectable(\.greeting) var eager
    @LazyInjectable(\.appGreeting) var lazy
    @WeakLazyInjectable(\.parent) var parent
}

func check(_ condition: Bool, _ what: String) {
    if !condition {
        fatalError("dynamic client: FAILED: \(what)")
    }
}

let container = Injections.container
let first = container.resolve(\.greeting)
check(container.resolve(\.greeting) === first, "a cached key resolves to one instance")
let held = container.resolve(\.sharedGreeting)
check(container.resolve(\.sharedGreeting) === held, "a shared key's instance while held")

let screen = Screen()
check(screen.eager === first, "@Injectable reads the cached instance")
check(screen.$lazy.valueIfResolved == nil, "@LazyInjectable resolves on first read")
check(screen.lazy === container.resolve(\.appGreeting), "@LazyInjectable's first read")
check(screen.$lazy.valueIfResolved != nil, "@LazyInjectable keeps its value")
check(screen.$lazy.resolve() === screen.lazy, "$lazy.resolve() resolves the same key")
let parent = container.resolve(\.parent)
check(screen.parent === parent, "@WeakLazyInjectable reads the cached instance")

Injections.withOverrides {
    $0.register(\.greeting) { Mock() }
} operation: {
    check(container.resolve(\.greeting).text == "mock", "an override in a layer")
    check(Screen().lazy.text == "hello", "a lazy wrapper of another key in a layer")
}
check(container.resolve(\.greeting) === first, "outside the layer, the live instance")
withExtendedLifetime((held, parent)) {}
print("dynamic client: ok")
SWIFT

for configuration in debug release; do
    swift build -c "$configuration" --package-path "$work" -Xswiftc -warnings-as-errors \
        >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    # Linked against the shared library, not a static copy of it.
    binary="$(swift build -c "$configuration" --package-path "$work" --show-bin-path)/App"
    # (ldd's output read whole: `grep -q` stopping it early would fail the pipe under pipefail.)
    libraries="$(ldd "$binary")"
    if [[ "$libraries" != *libInjectableKitDynamic* ]]; then
        echo "dynamic client: the $configuration app does not load libInjectableKitDynamic"
        exit 1
    fi
    "$binary" | sed "s/^/$configuration: /"
done
