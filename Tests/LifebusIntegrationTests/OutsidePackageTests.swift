import Glibc
import LifebusIO
import Testing

/// A new user's first tests: the README's "A Swift test in ten lines" and "A migration test in ten lines", pasted as
/// the test files of a package in a temporary folder that depends on Lifebus by path (with "A Swift app on the bus" as
/// its executable, which must compile), build and run there: the first
/// passes; the second passes for `NotesScenes` and fails for `HalfMigrated` (their manifests, as the README names
/// them, point at this repository's built examples; `lifebusd` is this repository's, on `PATH`). Slow (it builds
/// Lifebus again in that package's own build folder), so it runs when `LIFEBUS_OUTSIDE_PACKAGE_TEST=1`, which
/// `./scripts/test` sets.
@Suite struct OutsidePackageTests {
    static let enabled = ProcessEnvironment.current["LIFEBUS_OUTSIDE_PACKAGE_TEST"] == "1"

    @Test(.enabled(if: enabled), .timeLimit(.minutes(30)))
    func theReadmesSwiftTestsRunInAPackageOfTheirOwn() throws {
        let readme = String(decoding: try readBytes("\(TranscriptReplayTests.repositoryRoot)/README.md"), as: UTF8.self)
        let first = try Self.block(after: "## A Swift test in ten lines", in: readme)
        let app = try Self.block(after: "## A Swift app on the bus", in: readme)
        let migration = try Self.block(after: "## A migration test in ten lines", in: readme)
        #expect(first.split(separator: "\n").count <= 15, "at most 15 lines: \(first)")
        #expect(migration.split(separator: "\n").count <= 10, "at most 10 lines: \(migration)")

        let package = try CopiedScript(named: "first-test.sh", contents: Self.script(app: app, tests: [
            "FirstTests.swift": first, "MigrationTests.swift": migration,
        ]))
        let run = try package.run(timeout: .seconds(1500))
        #expect(run.out.contains("answeringACallSavesTheNotes() passed"), "\(run.out)")
        let failed = "homeSavesTheNotes(_:) recorded an issue with 1 argument example → "
        #expect(run.out.contains(failed + "\"halfmigrated\""), "HalfMigrated is caught: \(run.out)")
        #expect(run.out.contains("com.example.HalfMigrated did not mark \"state-saved\""), "\(run.out)")
        #expect(!run.out.contains(failed + "\"notesscenes\""), "NotesScenes passes: \(run.out)")
        #expect(run.status != 0, "the HalfMigrated case fails the run: \(run.out)\n\(run.err)")
    }

    /// The first Swift code block after `heading`.
    static func block(after heading: String, in readme: String) throws -> String {
        let section = try #require(readme.firstRange(of: heading))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.firstRange(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].firstRange(of: "```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    /// A script that writes the package (its manifest, `app` as its executable's `main.swift` — `swift test` builds
    /// it too, so the README's app compiles as written —, `tests` as its test files, and the examples' manifests the
    /// migration test installs) and runs `swift test` in it with this repository's `lifebusd` on `PATH`.
    static func script(app: String, tests: [String: String]) -> String {
        let root = TranscriptReplayTests.repositoryRoot
        let files = tests.sorted { $0.key < $1.key }.map { name, test in
            "cat > Tests/FirstTests/\(name) <<'TEST'\n\(test)TEST\n"
        }.joined()
        let manifests = ["notesscenes": "NotesScenes", "halfmigrated": "HalfMigrated"].sorted { $0.key < $1.key }
            .map { file, product in
                "printf '{\"id\": \"com.example.\(product)\", \"executable\": \"%s\"}\\n' "
                    + "\"\(root)/.build/debug/\(product)\" > Examples/manifests/\(file).json\n"
            }.joined()
        return """
        set -e
        mkdir -p Tests/FirstTests Examples/manifests Sources/MyApp
        cat > Sources/MyApp/main.swift <<'APP'
        \(app)APP
        cat > Package.swift <<'MANIFEST'
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "FirstLifebusTest",
            dependencies: [.package(name: "Lifebus", path: "\(root)")],
            targets: [
                .executableTarget(name: "MyApp", dependencies: [.product(name: "Lifebus", package: "Lifebus")]),
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
        \(files)\(manifests)export PATH="\(root)/.build/debug:$PATH"
        swift test 2>&1

        """
    }
}
