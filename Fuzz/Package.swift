// swift-tools-version: 6.1
//
// libFuzzer harness for LifebusProtocol, kept out of the main package so its sanitizer build never mixes with the
// regular one. Run it with `./run SECONDS` (see that script).
import PackageDescription

let package = Package(
    name: "LifebusFuzz",
    dependencies: [
        .package(name: "Lifebus", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "LifebusProtocolFuzzer",
            dependencies: [.product(name: "LifebusProtocol", package: "Lifebus")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
