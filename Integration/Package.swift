// swift-tools-version:6.2

import PackageDescription

// A small shop app split into modules the way apps are, built on DIToolkit from outside its package:
// `ShopCore` (shared services and the protocols features implement), one module per feature, `ShopApp`
// (the container tree), the `shop-demo` executable, and a test target per feature.
let package = Package(
    name: "Integration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ShopApp", targets: ["ShopApp"]),
        .executable(name: "shop-demo", targets: ["shop-demo"]),
    ],
    dependencies: [
        .package(name: "DIToolkit", path: "..")
    ],
    targets: [
        .target(name: "ShopCore", dependencies: [.product(name: "DICore", package: "DIToolkit")]),
        // Each feature imports only the DIToolkit modules it uses.
        .target(name: "Catalog", dependencies: ["ShopCore", .product(name: "DICore", package: "DIToolkit")]),
        .target(
            name: "Cart",
            dependencies: [
                "ShopCore", .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DIScopes", package: "DIToolkit"),
            ]
        ),
        .target(
            name: "Checkout",
            dependencies: [
                "ShopCore", .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DIPropertyWrappers", package: "DIToolkit"),
            ]
        ),
        .target(
            name: "ShopApp",
            dependencies: ["ShopCore", "Catalog", "Cart", "Checkout", .product(name: "DICore", package: "DIToolkit")]
        ),
        .executableTarget(
            name: "shop-demo",
            dependencies: [
                "ShopApp", "ShopCore", "Catalog", "Cart", "Checkout",
                .product(name: "DIToolkit", package: "DIToolkit"),
            ],
            path: "Sources/ShopDemo"
        ),

        // What the test targets share: the app tree, built once, and a trait that binds a feature of it.
        .target(
            name: "ShopTestSupport",
            dependencies: ["ShopApp", "ShopCore", .product(name: "DICore", package: "DIToolkit")],
            path: "Tests/ShopTestSupport"
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "Catalog", "ShopApp", "ShopCore", "ShopTestSupport", .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DITesting", package: "DIToolkit"),
            ]
        ),
        .testTarget(
            name: "CartTests",
            dependencies: [
                "Cart", "ShopApp", "ShopCore", "ShopTestSupport", .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DITesting", package: "DIToolkit"),
            ]
        ),
        // `__Snapshots__` holds the graph snapshot `expectGraphSnapshot` compares with; not a resource.
        .testTarget(
            name: "CheckoutTests",
            dependencies: [
                "Checkout", "Cart", "ShopApp", "ShopCore", "ShopTestSupport",
                .product(name: "DICore", package: "DIToolkit"), .product(name: "DIDiagnostics", package: "DIToolkit"),
                .product(name: "DITesting", package: "DIToolkit"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .test, .executable].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // The same upcoming features as the root package, so the sample reads like code built on it.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    target.swiftSettings = settings
}

// MARK: - Server-side: shop-server on Hummingbird 2, one request container per request, and its tests
// One block appended to the package, so that it merges independently of the sample app above.
package.dependencies += [
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
]
package.products += [.executable(name: "shop-server", targets: ["shop-server"])]
let serverTargets: [Target] = [
    .target(
        name: "ShopServer",
        dependencies: [
            "ShopApp", "ShopCore", "Catalog", "Cart", "Checkout",
            .product(name: "DICore", package: "DIToolkit"),
            .product(name: "DIScopes", package: "DIToolkit"),
            .product(name: "DIPropertyWrappers", package: "DIToolkit"),
            .product(name: "DIDiagnostics", package: "DIToolkit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]
    ),
    .executableTarget(
        name: "shop-server",
        dependencies: [
            "ShopServer", .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Sources/ShopServerMain"
    ),
    // What the probes share: emptying the caches after every request (`PROBE_EVICT_KB`).
    .target(name: "ProbeSupport"),
    // What the container server does per request, without HTTP, for an instruction counter (callgrind).
    .executableTarget(
        name: "request-probe",
        dependencies: [
            "ShopServer", "ShopApp", "ShopCore", "Cart", "ProbeSupport",
            .product(name: "DICore", package: "DIToolkit"),
            .product(name: "DIScopes", package: "DIToolkit"),
            .product(name: "DIPropertyWrappers", package: "DIToolkit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ],
        path: "Sources/RequestProbe"
    ),
    // Both servers answering load.sh's mix in one process, through Hummingbird's responder, without sockets.
    .executableTarget(
        name: "server-probe",
        dependencies: [
            "ShopServer", "ProbeSupport",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ],
        path: "Sources/ServerProbe"
    ),
    .testTarget(
        name: "ShopServerTests",
        dependencies: [
            "ShopServer", "ShopApp", "ShopCore", "Cart",
            .product(name: "DICore", package: "DIToolkit"),
            .product(name: "DIScopes", package: "DIToolkit"),
            .product(name: "DIDiagnostics", package: "DIToolkit"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]
    ),
]
for target in serverTargets {
    // The same upcoming features as the root package (this block comes after the loop that sets them).
    target.swiftSettings = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ]
}
package.targets += serverTargets
