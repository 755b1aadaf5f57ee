import Glibc
import LifebusIO
import Testing

/// A new user's first test: the README's "A Swift test in ten lines", pasted as the only test file of a package in a
/// temporary folder that depends on Lifebus by path, builds and passes. Slow (it builds Lifebus again in that
/// package's own build folder), so it runs when `LIFEBUS_OUTSIDE_PACKAGE_TEST=1`, which `./scripts/test` sets.
@Suite struct OutsidePackageTests {
    static let enabled = ProcessEnvironment.current["LIFEBUS_OUTSIDE_PACKAGE_TEST"] == "1"

    @Test(.enabled(if: enabled), .timeLimit(.minutes(30)))
    func theReadmesSwiftTestPassesInAPackageOfItsOwn() throws {
        let readme = String(decoding: try readBytes("\(TranscriptReplayTests.repositoryRoot)/README.md"), as: UTF8.self)
        let section = try #require(readme.firstRange(of: "## A Swift test in ten lines"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.firstRange(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].firstRange(of: "```"))
        let block = String(rest[open.upperBound..<close.lowerBound])
        #expect(block.split(separator: "\n").count <= 15, "at most 15 lines: \(block)")

        let package = try CopiedScript(named: "first-test.sh", contents: Self.script(test: block))
        let run = try package.run(timeout: .seconds(1500))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.out.contains("answeringACallSavesTheNotes() passed"), "\(run.out)")
    }

    /// A script that writes the package (its manifest and `test` as its one test file) and runs `swift test` in it.
    static func script(test: String) -> String {
        """
        set -e
        mkdir -p Tests/FirstTests
        cat > Package.swift <<'MANIFEST'
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "FirstLifebusTest",
            dependencies: [.package(name: "Lifebus", path: "\(TranscriptReplayTests.repositoryRoot)")],
            targets: [
                .testTarget(
                    name: "FirstTests",
                    dependencies: [
                        .product(name: "Lifebus", package: "Lifebus"),
                        .product(name: "LifebusTesting", package: "Lifebus"),
                    ]
                )
            ]
        )
        MANIFEST
        cat > Tests/FirstTests/FirstTests.swift <<'TEST'
        \(test)TEST
        swift test 2>&1

        """
    }
}
