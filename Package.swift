// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "InjectableKit",
    // Observation needs macOS 14 / iOS 17; some standard library API the library uses needs
    // macOS 15 / iOS 18. .ci/availability.tsv lists every system API the library uses with the
    // first versions that have it. (Locks and atomics need none: they are the C target's.)
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "InjectableKit", targets: ["InjectableKit"]),
        // The same library, linked dynamically: one copy, and so one container, for an app and
        // the test bundles or frameworks that it loads (see the README's Installation).
        .library(name: "InjectableKitDynamic", type: .dynamic, targets: ["InjectableKit"]),
        .library(name: "InjectableTesting", targets: ["InjectableTesting"]),
        .executable(name: "Demo", targets: ["Demo"]),
    ],
    targets: [
        // Library
        .target(
            name: "InjectableKit", dependencies: ["CInjectableAtomics"],
            exclude: ["Internal/README.md"]),
        // The library's atomics: atomic operations on words, the same on every platform.
        .target(name: "CInjectableAtomics"),
        .target(name: "InjectableTesting", dependencies: ["InjectableKit"]),

        // Demo
        .target(name: "DemoKit", dependencies: ["InjectableKit"], path: "Demo/DemoKit"),
        .executableTarget(name: "Demo", dependencies: ["DemoKit"], path: "Demo/Main"),

        // Tests
        .testTarget(
            name: "InjectableKitTests",
            dependencies: ["InjectableKit", "InjectableTesting", "CallSiteFixtures", "DemoKit"]),
        // Keys resolved from a second module, whose keypath objects differ from the tests'.
        .target(
            name: "CallSiteFixtures", dependencies: ["InjectableKit"],
            path: "Tests/CallSiteFixtures"),
        .testTarget(
            name: "InjectableTestingTests", dependencies: ["InjectableKit", "InjectableTesting"]),
        .testTarget(name: "DemoTests", dependencies: ["DemoKit", "InjectableKit"]),
        // An app module as current Xcode templates make them: main actor by default.
        .testTarget(
            name: "DefaultMainActorTests", dependencies: ["InjectableKit"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.name != "CInjectableAtomics" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
