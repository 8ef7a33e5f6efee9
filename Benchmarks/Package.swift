// swift-tools-version: 6.2

import PackageDescription

// DIToolkit's benchmarks, side by side with Swinject, swift-dependencies and hand-written code.
// Its own package, so that the library's root Package.swift keeps no dependencies
// (as swift-nio keeps its benchmarks in `Benchmarks/Package.swift`).
//
// package-benchmark runs every executable target below `Benchmarks/`, one per contender, in one
// `swift package benchmark` invocation; `compare.sh` turns the run into one table of ratios.

let package = Package(
    name: "DIToolkitBenchmarks",
    platforms: [
        .macOS(.v15)
    ],
    dependencies: [
        .package(name: "DIToolkit", path: ".."),
        // The MallocInterposer trait gives the allocation counts (`mallocCountTotal`).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        // The services, graphs, sizes and helpers every contender shares.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark")
            ]
        ),

        // DIToolkit: DICore's container (resolve, graphs, hierarchy, failures, registration, threads, memory).
        .executableTarget(
            name: "ContainerBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DIScopes", package: "DIToolkit"),
            ],
            path: "Benchmarks/Container",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // DIToolkit: validate() and graph text at 100 / 1,000 / 10,000 registrations (DIDiagnostics), and
        // resolves in a container that was traced (tracing must cost nothing once it is off).
        .executableTarget(
            name: "DiagnosticsBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DIDiagnostics", package: "DIToolkit"),
            ],
            path: "Benchmarks/Diagnostics",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // DIToolkit: @Inject and @LazyInject (DIPropertyWrappers).
        .executableTarget(
            name: "PropertyWrapperBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DIPropertyWrappers", package: "DIToolkit"),
            ],
            path: "Benchmarks/PropertyWrappers",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // DIToolkit: test containers (DITesting), made per test over a large app graph.
        .executableTarget(
            name: "TestingBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DICore", package: "DIToolkit"),
                .product(name: "DITesting", package: "DIToolkit"),
            ],
            path: "Benchmarks/Testing",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // Contender: Swinject 2.10.
        .executableTarget(
            name: "SwinjectBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/Swinject",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // Contender: swift-dependencies 1.17 (@Dependency, withDependencies, DependencyValues).
        .executableTarget(
            name: "DependenciesBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/Dependencies",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),

        // The floor: the same objects built by hand.
        .executableTarget(
            name: "HandwrittenBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Handwritten",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
