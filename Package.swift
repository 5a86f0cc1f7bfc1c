// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "InjectableKit",
    // The deployment floor, set here only: that of Swift concurrency's back-deployment. What
    // needs a newer system carries `@available` with all five platforms: the time-to-live and
    // timeout forms that take a `Duration` (iOS 16, macOS 13), `@InjectableObject` and the rest
    // of the Observation-based API (iOS 17, macOS 14), and `changes(of:)` (iOS 18, macOS 15).
    // .ci/availability.tsv lists every system API the library uses with the first versions
    // that have it; Tests/Availability/run.sh checks each use of the newer ones against the
    // `@available` around it. (Locks and atomics need nothing: they are the C target's.)
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "InjectableKit", targets: ["InjectableKit"]),
        // The same library, linked dynamically: one copy, and so one container, for an app and
        // the test bundles or frameworks that it loads (see the README's Installation).
        .library(name: "InjectableKitDynamic", type: .dynamic, targets: ["InjectableKit"]),
        .library(name: "InjectableTesting", targets: ["InjectableTesting"]),
        .executable(name: "Demo", targets: ["Demo"]),
        // Adds `Injections.verifyAll()` to a test target: every key its modules declare.
        .plugin(name: "InjectionKeys", targets: ["InjectionKeys"]),
    ],
    targets: [
        // Library
        .target(
            name: "InjectableKit", dependencies: ["CInjectableAtomics"],
            exclude: ["Internal/README.md"]),
        // The library's atomics (atomic operations on words) and the monotonic clock of its time
        // to live: the same C code on every platform.
        .target(name: "CInjectableAtomics"),
        .target(name: "InjectableTesting", dependencies: ["InjectableKit"]),
        .plugin(
            name: "InjectionKeys", capability: .buildTool(),
            dependencies: ["InjectionKeysGenerator"]),
        .executableTarget(name: "InjectionKeysGenerator", dependencies: ["InjectionKeyScanner"]),
        .target(name: "InjectionKeyScanner"),

        // Demo
        .target(name: "DemoKit", dependencies: ["InjectableKit"], path: "Demo/DemoKit"),
        .executableTarget(
            name: "Demo", dependencies: ["DemoKit"], path: "Demo/Main", plugins: ["InjectionKeys"]),

        // Tests
        .testTarget(
            name: "InjectableKitTests",
            dependencies: [
                "InjectableKit", "InjectableTesting", "CallSiteFixtures", "DemoKit", "TestSupport",
                "CInjectableAtomics",
            ]),
        // Thread-safe values the test targets share (locks, at the package's floor).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Keys resolved from a second module, whose keypath objects differ from the tests'.
        .target(
            name: "CallSiteFixtures", dependencies: ["InjectableKit"],
            path: "Tests/CallSiteFixtures"),
        .testTarget(
            name: "InjectableTestingTests",
            dependencies: ["InjectableKit", "InjectableTesting", "TestSupport"]),
        .testTarget(
            name: "DemoTests", dependencies: ["DemoKit", "InjectableKit"],
            plugins: ["InjectionKeys"]),
        .testTarget(name: "InjectionKeyScannerTests", dependencies: ["InjectionKeyScanner"]),
        // An app module as current Xcode templates make them: main actor by default.
        .testTarget(
            name: "DefaultMainActorTests", dependencies: ["InjectableKit"],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.name != "CInjectableAtomics" && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
