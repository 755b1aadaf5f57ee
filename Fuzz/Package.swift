// swift-tools-version: 6.1
//
// libFuzzer harnesses, kept out of the main package so their sanitizer build never mixes with the regular one:
// LifebusProtocolFuzzer (one line into the decoder) and LifebusDaemonFuzzer (a whole broker in-process, several
// peers over its real socket). Run them with `./run SECONDS` (see that script and README.md).
import PackageDescription

let package = Package(
    name: "LifebusFuzz",
    dependencies: [
        .package(name: "Lifebus", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "LifebusProtocolFuzzer",
            dependencies: [
                .product(name: "LifebusJSON", package: "Lifebus"),
                .product(name: "LifebusProtocol", package: "Lifebus"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "LifebusDaemonFuzzer",
            dependencies: [
                .product(name: "LifebusBroker", package: "Lifebus"),
                .product(name: "LifebusIO", package: "Lifebus"),
                .product(name: "LifebusJSON", package: "Lifebus"),
                .product(name: "LifebusProtocol", package: "Lifebus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
