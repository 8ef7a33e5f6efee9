// swift-tools-version:6.2

import PackageDescription

let package = Package(
    name: "DIToolkit",
    // The releases that ship the Synchronization module (Atomic, Mutex), which DICore uses; any Linux.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "DICore", targets: ["DICore"]),
        .library(name: "DIScopes", targets: ["DIScopes"]),
        .library(name: "DIPropertyWrappers", targets: ["DIPropertyWrappers"]),
        .library(name: "DIDiagnostics", targets: ["DIDiagnostics"]),
        .library(name: "DITesting", targets: ["DITesting"]),
        .library(name: "DIToolkit", targets: ["DIToolkit"]),
    ],
    targets: [
        // DICore's one C helper: the thread-local slot of its resolution stack (not a product).
        .target(name: "CDIThreadLocal"),
        .target(name: "DICore", dependencies: ["CDIThreadLocal"]),
        .target(name: "DIScopes", dependencies: ["DICore"]),
        .target(name: "DIPropertyWrappers", dependencies: ["DICore", "DIScopes"]),
        .target(name: "DIDiagnostics", dependencies: ["DICore"]),
        .target(name: "DITesting", dependencies: ["DICore", "DIPropertyWrappers", "DIDiagnostics"]),
        .target(
            name: "DIToolkit",
            dependencies: ["DICore", "DIScopes", "DIPropertyWrappers", "DIDiagnostics"]
        ),

        // Helpers the test targets share (watchdogs for tests that could hang); not a product.
        .target(name: "DITestSupport", dependencies: ["DICore", "DIScopes"], path: "Tests/DITestSupport"),

        .testTarget(name: "DICoreTests", dependencies: ["DICore", "DITestSupport"]),
        .testTarget(name: "DIScopesTests", dependencies: ["DIScopes", "DITestSupport"]),
        .testTarget(name: "DIPropertyWrappersTests", dependencies: ["DIPropertyWrappers", "DITestSupport"]),
        // `__Snapshots__` holds the graph snapshots `expectGraphSnapshot` compares with; not a resource.
        .testTarget(
            name: "DITestingTests", dependencies: ["DITesting", "DIDiagnostics", "DIScopes", "DITestSupport"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "DIDiagnosticsTests", dependencies: ["DIDiagnostics", "DIScopes", "DITestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .test, .executable].contains(target.type) {
    var settings = target.swiftSettings ?? []

    // SE-0335: spell existentials `any P`, so a reader sees where dynamic dispatch happens.
    settings.append(.enableUpcomingFeature("ExistentialAny"))

    // SE-0444: a file sees only the members of modules it imports itself; keeps module edges honest.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))

    // SE-0461: nonisolated async functions run on the caller's actor, so `withContainer` and
    // async resolution do not hop off the caller's isolation.
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))

    target.swiftSettings = settings
}
