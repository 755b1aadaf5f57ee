// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Lifebus",
    products: [
        .library(name: "Lifebus", targets: ["Lifebus"]),
        .library(name: "LifebusLifecycle", targets: ["LifebusLifecycle"]),
        .library(name: "LifebusProtocol", targets: ["LifebusProtocol"]),
        .library(name: "LifebusJSON", targets: ["LifebusJSON"]),
        .library(name: "LifebusCore", targets: ["LifebusCore"]),
        // For Fuzz/ (the whole-daemon fuzzer runs a broker in its own process).
        .library(name: "LifebusBroker", targets: ["LifebusBroker"]),
        .library(name: "LifebusIO", targets: ["LifebusIO"]),
        .library(name: "LifebusTesting", targets: ["LifebusTesting"]),
        .executable(name: "lifebusd", targets: ["lifebusd"]),
        .executable(name: "lifebus", targets: ["lifebus"]),
        // `lifebus run` execs it: scenario files need Yams (and so Foundation), kept out of `lifebus`'s start-up.
        .executable(name: "lifebus-run", targets: ["lifebus-run"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // A plugin only (`swift package generate-documentation`): no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .target(name: "CLifebusSystem"),

        // Libraries
        .target(name: "LifebusIO", dependencies: ["CLibUV", "CLifebusSystem"], swiftSettings: strict),
        .target(name: "LifebusLifecycle", swiftSettings: strict),
        // JSON text and values: the tree, the parser and the writers every other layer reads and writes with.
        .target(name: "LifebusJSON", swiftSettings: strict),
        .target(name: "LifebusProtocol", dependencies: ["LifebusJSON", "LifebusLifecycle"], swiftSettings: strict),
        .target(
            name: "LifebusCore",
            dependencies: ["LifebusLifecycle", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusRPC", dependencies: ["LifebusIO", "LifebusJSON", "LifebusProtocol"], swiftSettings: strict
        ),
        .target(
            name: "LifebusBrokerLauncher", dependencies: ["LifebusIO", "LifebusLifecycle"], swiftSettings: strict
        ),
        .target(
            name: "LifebusBrokerMachine",
            dependencies: [
                "LifebusJSON", "LifebusProtocol", "LifebusCore", "LifebusLifecycle",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusJournal",
            dependencies: [
                "LifebusBrokerMachine", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusBroker",
            dependencies: [
                "LifebusBrokerMachine", "LifebusJournal", "LifebusIO", "LifebusJSON", "LifebusProtocol", "LifebusRPC",
                "LifebusCore", "LifebusLifecycle", "LifebusSupervision", "LifebusContainment",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Lifebus",
            dependencies: ["LifebusRPC", "LifebusIO", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        // An app's process on this host as the broker's supervisor and `lifebus subscribe` both run it: contained
        // (its cgroup or subreaper tree, the guard, the orphan reaper) and logged (its bounded log files).
        .target(
            name: "LifebusContainment", dependencies: ["LifebusIO", "CLifebusSystem"], swiftSettings: strict
        ),
        .target(
            name: "LifebusSupervision",
            dependencies: [
                "LifebusContainment", "LifebusIO", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol",
                "CLifebusSystem",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusTesting",
            dependencies: [
                "Lifebus", "LifebusBrokerMachine", "LifebusCore", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol",
                "LifebusRPC", "LifebusIO", "LifebusBrokerLauncher", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusTimeline", dependencies: ["LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusExpectation", dependencies: ["LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusCoverage", dependencies: ["LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusFuzzing",
            dependencies: ["LifebusScenario", "LifebusCore", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol"],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusMCP",
            dependencies: [
                "LifebusIO", "LifebusJSON", "LifebusRPC", "LifebusProtocol", "LifebusLifecycle", "LifebusTimeline",
                "LifebusExpectation", "LifebusCoverage", "LifebusContainment",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusScenario",
            dependencies: [
                "LifebusCore", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol", "LifebusRPC", "LifebusIO",
                "LifebusTimeline", "LifebusExpectation", "LifebusBrokerLauncher", "LifebusContainment",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusCLI",
            dependencies: [
                "LifebusRPC", "LifebusIO", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle", "Lifebus",
                "LifebusTimeline", "LifebusExpectation", "LifebusMCP", "LifebusBrokerLauncher", "LifebusContainment",
                "LifebusCoverage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifebusDaemon",
            dependencies: [
                "LifebusBroker", "LifebusCore", "LifebusLifecycle", "LifebusIO", "LifebusProtocol",
                "LifebusSupervision", "LifebusContainment", "CLifebusSystem",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // Executables: thin mains
        // Linked by lld, which places the functions listed in scripts/lifebusd.order first (release builds:
        // scripts/lib.sh's lifebus_build_release): the broker's resident code is then a few hundred KiB, not 5 MiB.
        .executableTarget(
            name: "lifebusd", dependencies: ["LifebusDaemon"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ),
        .executableTarget(name: "lifebus", dependencies: ["LifebusCLI"], swiftSettings: strict),
        .executableTarget(
            name: "lifebus-run",
            dependencies: [
                "LifebusScenario", "LifebusCLI", "LifebusLifecycle", "LifebusIO", "LifebusProtocol",
                "LifebusFuzzing", "LifebusSupervision", "LifebusCoverage", "LifebusJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "DeepThoughts", dependencies: ["Lifebus", "LifebusJSON"], path: "Examples/DeepThoughts",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ReturnMeTo", dependencies: ["Lifebus", "LifebusJSON"], path: "Examples/ReturnMeTo",
            swiftSettings: strict
        ),
        // Deliberately broken (forgets to save on `sms --reply`): what the interruption fuzzer must find.
        .executableTarget(
            name: "Forgetful", dependencies: ["Lifebus", "LifebusJSON", "LifebusProtocol"], path: "Examples/Forgetful",
            swiftSettings: strict
        ),
        // Scenes adopted correctly: two windows, each saved and restored (issue 27).
        .executableTarget(
            name: "NotesScenes", dependencies: ["Lifebus", "LifebusJSON", "LifebusLifecycle"],
            path: "Examples/NotesScenes", swiftSettings: strict
        ),
        // Deliberately half-migrated: scenes adopted, saves still in the app delegate (issue 27).
        .executableTarget(
            name: "HalfMigrated", dependencies: ["Lifebus", "LifebusJSON", "LifebusLifecycle"],
            path: "Examples/HalfMigrated", swiftSettings: strict
        ),
        // Background execution (issue 28): a refresh task, silent pushes, a draft in a protected file; with
        // --forgets-completion it never completes its refresh (killed backgroundTaskExpired).
        .executableTarget(
            name: "FeedReader", dependencies: ["Lifebus", "LifebusJSON", "LifebusLifecycle"],
            path: "Examples/FeedReader", swiftSettings: strict
        ),
        .executableTarget(
            name: "MemoryGrower", dependencies: ["Lifebus", "LifebusIO", "LifebusJSON"],
            path: "Examples/MemoryGrower", swiftSettings: strict
        ),

        // Tests
        .testTarget(
            name: "LifebusBrokerTests",
            dependencies: [
                "LifebusBroker", "LifebusCore", "LifebusIO", "LifebusJSON", "LifebusRPC", "LifebusProtocol",
                "LifebusLifecycle",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusJournalTests",
            dependencies: [
                "LifebusJournal", "LifebusIO", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusBrokerMachineTests",
            dependencies: [
                "LifebusBrokerMachine", "LifebusCore", "LifebusJSON", "LifebusLifecycle", "LifebusProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        // The rows of Protocol/lifecycle.md as data, shared by the core's table test and the end-to-end row test.
        .target(
            name: "LifecycleContract", dependencies: ["LifebusCore", "LifebusLifecycle"],
            path: "Tests/LifecycleContract", swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusJSONTests",
            dependencies: ["LifebusJSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusProtocolTests",
            dependencies: [
                "LifebusJSON", "LifebusProtocol", "LifebusLifecycle",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "LifebusIOTests", dependencies: ["LifebusIO"], swiftSettings: strict),
        .testTarget(
            name: "LifebusSupervisionTests",
            // The executables are started by the memory story test (a real broker, CLI and example apps).
            dependencies: [
                "LifebusSupervision", "LifebusContainment", "LifebusIO", "LifebusJSON", "LifebusLifecycle",
                "LifebusProtocol", "LifebusTestFiles", "lifebusd", "lifebus", "MemoryGrower", "SupervisionDrill",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusContainmentTests", dependencies: ["LifebusContainment", "LifebusIO", "LifebusTestFiles"],
            swiftSettings: strict
        ),
        // A test's temporary folder, shared by the test targets that write files for the code under test.
        .target(name: "LifebusTestFiles", path: "Tests/TestFiles", swiftSettings: strict),
        // The memory sampler's cost and accuracy on 2,000 processes, a row of ./scripts/bench.
        .executableTarget(
            name: "MemorySamplingBench", dependencies: ["LifebusSupervision", "LifebusContainment"],
            path: "Benchmarks/MemorySampling",
            swiftSettings: strict
        ),
        // The PID-reuse drill, run by LifebusSupervisionTests in a pid namespace of its own.
        .executableTarget(
            name: "SupervisionDrill", dependencies: ["LifebusSupervision", "LifebusIO"], path: "Tests/SupervisionDrill",
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusRPCTests",
            dependencies: ["LifebusRPC", "LifebusIO", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusCoreTests",
            dependencies: [
                "LifebusCore", "LifebusLifecycle", "LifecycleContract",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusSDKTests",
            dependencies: ["Lifebus", "LifebusIO", "LifebusJSON", "LifebusRPC", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusCLITests",
            dependencies: [
                "LifebusCLI", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle", "LifebusTimeline",
                "LifebusExpectation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusTimelineTests",
            dependencies: ["LifebusTimeline", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusTestingTests",
            dependencies: [
                "LifebusTesting", "Lifebus", "LifebusLifecycle", "LifebusCore", "LifecycleContract", "lifebusd",
                "ReturnMeTo", "LifebusBrokerLauncher", "LifebusIO",
            ],
            exclude: ["Fixtures"],  // a stand-in broker BrokerProcessTests starts
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusCoverageTests",
            dependencies: ["LifebusCoverage", "LifebusProtocol", "LifebusLifecycle", "LifebusCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusFuzzingTests",
            dependencies: [
                "LifebusFuzzing", "LifebusScenario", "LifebusCore", "LifebusLifecycle", "LifebusProtocol",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusScenarioTests",
            dependencies: [
                "LifebusScenario", "LifebusCLI", "LifebusJSON", "LifebusProtocol", "LifebusLifecycle", "LifebusCore",
                "LifebusFuzzing", "LifebusExpectation", "LifebusTimeline",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifebusMCPTests", dependencies: [
                "LifebusMCP", "LifebusProtocol", "LifebusLifecycle", "LifebusExpectation", "LifebusJSON",
                "LifebusTimeline",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LifebusIntegrationTests",
            dependencies: [
                "LifebusJSON", "LifebusProtocol", "LifebusRPC", "LifebusIO", "lifebusd", "lifebus", "lifebus-run",
                "DeepThoughts",
                "ReturnMeTo", "Forgetful", "FeedReader",
                "LifebusCore", "LifebusLifecycle", "LifecycleContract", "LifebusTimeline", "LifebusContainment",
            ],
            exclude: ["Fixtures"],  // helper scripts the tests run (the MCP client, the PNG reader)
            swiftSettings: strict
        ),
    ]
)
