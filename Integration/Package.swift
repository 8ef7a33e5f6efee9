// swift-tools-version:6.2

import PackageDescription

// The sample app and demo: DIToolkit used the way an app uses it, from outside the package.
let package = Package(
    name: "Integration",
    dependencies: [
        .package(name: "DIToolkit", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "Demo",
            dependencies: [.product(name: "DIToolkit", package: "DIToolkit")]
        )
    ],
    swiftLanguageModes: [.v6]
)
