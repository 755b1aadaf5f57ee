// swift-tools-version: 6.1
//
// Lifebus's micro-benchmark suite on package-benchmark (ordo-one/benchmark): the hot pure code (the JSON of each
// message kind, record encoding, the core on an input mix) timed with allocation counts. A package of its own so
// that the main package's build, tests and CI resolution never pull package-benchmark and its dependencies.
//
//   swift package --package-path Benchmarks/Micro benchmark       (or ./scripts/bench --micro)
//
// Only the MallocInterposer trait: the default RuntimeInterposer trait needs ordo-one/swift-runtime-interposer on
// Linux with Swift 6.3, which is not on the machines' package mirror; without it the dependency is pruned.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "LifebusMicro",
    dependencies: [
        .package(name: "Lifebus", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "MicroRun", swiftSettings: strict),
        // JSON decode of what the broker reads, encode of what it writes, and the transition record's text.
        .executableTarget(
            name: "Wire",
            dependencies: [
                "MicroRun", .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LifebusJSON", package: "Lifebus"),
                .product(name: "LifebusProtocol", package: "Lifebus"),
            ],
            path: "Benchmarks/Wire",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // LifebusCore's Device on a seeded random input mix over 1,000 apps.
        .executableTarget(
            name: "Core",
            dependencies: [
                "MicroRun", .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LifebusCore", package: "Lifebus"),
                .product(name: "LifebusLifecycle", package: "Lifebus"),
            ],
            path: "Benchmarks/Core",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
