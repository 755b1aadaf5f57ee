import Glibc
import LifecycleContract
import Testing

/// Every row of `Protocol/lifecycle.md`'s table is run by exactly one side: the rows of `LifecycleTable.kitRowIDs`
/// through the kit on both transports (this target's `LifecycleRowsTests`), the other rows of `LifecycleTable`
/// (`driverRows`) through the core's `Harness` (LifebusCoreTests) and the integration tests' `RowRunner`; the
/// installed-app rows (§16.5), which need real executables, run through the kit's `install(manifest:)` in
/// `InstalledAppRowTests` (R140, R141) and the named integration tests (the rest). A row added to the document and to
/// no test, a row run twice, a row tested that the document lost, or a stale id in the kit's list, fails here.
@Suite struct RowCoverageTests {
    /// The rows of the document that `LifecycleTable` does not hold, and the tests that cover each.
    static let installedAppRows: [String: String] = [
        "R140": "InstalledAppRowTests, AppsSupervisedTests.anInstalledAppIsSpawnedByFireLaunch…",
        "R141": "InstalledAppRowTests, AppsSupervisedTests.aSpawnThatFailsAnswersLaunchFailed…",
        "R142": "AppsSupervisedTests.atStopASpawnedAppGetsWillTerminate…",
        "R143": "AppsMemoryTests.criticalPressureFromResidentMemoryKillsTheSuspendedApp…",
        "R144": "AppsMemoryTests.anAppOverItsManifestsMemoryLimitIsKilledEvenInFront",
    ]

    /// The row ids of the table in `Protocol/lifecycle.md` (lines starting `| Rnn |`).
    static func documentRowIDs() throws -> Set<String> {
        let file = "\(#filePath)"
        let tests = try #require(file.range(of: "/Tests/"))
        let path = String(file[..<tests.lowerBound]) + "/Protocol/lifecycle.md"
        let opened: UnsafeMutablePointer<FILE>? = fopen(path, "r")
        let handle = try #require(opened, "cannot read \(path)")
        defer { fclose(handle) }
        var ids: Set<String> = []
        var buffer = [CChar](repeating: 0, count: 8192)
        while fgets(&buffer, Int32(buffer.count), handle) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard line.hasPrefix("| R"), cells.count > 2 else { continue }
            ids.insert(cells[1].filter { $0 != " " })
        }
        return ids
    }

    @Test func everyRowOfTheDocumentIsRunByExactlyOneSide() throws {
        let document = try Self.documentRowIDs()
        let kit = LifecycleTable.kitRowIDs
        let kitRun = Set(LifecycleTable.kitRows.map(\.id))
        let drivers = Set(LifecycleTable.driverRows.map(\.id))
        let elsewhere = Set(Self.installedAppRows.keys)
        #expect(document.count >= 70, "the table was read: \(document.count) rows")
        #expect(kitRun == kit, "ids in the kit's list that the table does not hold: \(kit.subtracting(kitRun))")
        #expect(kitRun.isDisjoint(with: drivers), "rows both the kit and the drivers run")
        #expect(kitRun.union(drivers).isDisjoint(with: elsewhere), "table rows also run as installed-app rows")
        #expect(document.subtracting(kitRun.union(drivers).union(elsewhere)).isEmpty, "rows no test runs")
        #expect(kitRun.union(drivers).union(elsewhere).subtracting(document).isEmpty,
                "rows tested that the document lost")
        #expect(kitRun.count + drivers.count == LifecycleTable.all.count, "every table row is run by one side")
    }
}
