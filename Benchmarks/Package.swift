// swift-tools-version: 6.1
import PackageDescription

/// The settings of every target: the same upcoming features as InjectableKit's own targets.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The benchmarks live in their own package so that InjectableKit itself keeps no dependencies.
// The peers are pinned to exact versions so that figures from different runs compare.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        // Named, because a path dependency is otherwise identified by its folder's name.
        .package(name: "InjectableKit", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "CallSiteKeys",
                "CallSiteModule",
                .product(name: "InjectableKit", package: "InjectableKit"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `call-sites` scenarios: the key, declared where every call site can name it, and
        // one call site in the module that declares it.
        .target(
            name: "CallSiteKeys",
            dependencies: [.product(name: "InjectableKit", package: "InjectableKit")],
            swiftSettings: swiftSettings
        ),
        // A call site in a second module, as an app's feature modules resolve shared keys.
        .target(
            name: "CallSiteModule",
            dependencies: [
                "CallSiteKeys",
                .product(name: "InjectableKit", package: "InjectableKit"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
