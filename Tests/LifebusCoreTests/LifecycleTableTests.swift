import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` the kit cannot run (`LifecycleTable.driverRows`), through the core's
/// `Harness`: the exact journal, `start`/`kill`/`expiring` lines included, on a virtual device.
@Suite("Protocol/lifecycle.md, row by row")
struct LifecycleTableTests {
    @Test("each row the kit cannot run behaves as specified under each profile",
          arguments: LifecycleTable.driverRows + LifecycleTable.sceneRows + LifecycleTable.backgroundRows,
          Profile.allCases)
    func row(_ row: Row, _ profile: Profile) throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        var harness = Harness(DeviceConfiguration(
            profile: profile, knobs: row.knobs))
        for step in row.setup {
            harness.run(step)
        }
        let start = harness.journal.count
        for step in row.steps {
            harness.run(step)
        }
        #expect(harness.describe(from: start) == expected.journal, "\(row.id) \(profile): journal")
        #expect(harness.situation == expected.situation, "\(row.id) \(profile): situation")
        #expect(harness.device.unansweredEventCount == 0, "\(row.id) \(profile): every event answered")
        #expect(harness.violations.isEmpty, "\(row.id) \(profile): \(harness.violations)")
    }

    @Test("row ids are unique")
    func rowIDsAreUnique() {
        let rows = LifecycleTable.all + LifecycleTable.sceneRows + LifecycleTable.backgroundRows
        #expect(Set(rows.map(\.id)).count == rows.count)
    }

    @Test("every background row of lifecycle.md is a contract row, and back")
    func backgroundRowsMatchTheDocument() throws {
        let path = "\(#filePath)".components(separatedBy: "/Tests/")[0] + "/Protocol/lifecycle.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let documented = Set(document.split(separator: "\n").filter { $0.hasPrefix("| B") }.map {
            String($0.split(separator: "|")[0].filter { $0 != " " })
        })
        #expect(documented == Set(LifecycleTable.backgroundRows.map(\.id)))
    }

    @Test("every scene row of lifecycle.md is a contract row tagged scene, and back")
    func sceneRowsMatchTheDocument() throws {
        let path = "\(#filePath)".components(separatedBy: "/Tests/")[0] + "/Protocol/lifecycle.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let documented = Set(document.split(separator: "\n").filter { $0.hasPrefix("| S") }.map {
            String($0.split(separator: "|")[0].filter { $0 != " " })
        })
        let rows = LifecycleTable.sceneRows
        #expect(documented == Set(rows.map(\.id)))
        #expect(rows.allSatisfy { $0.tags.contains(.scene) })
        for row in rows {
            for profile in Profile.allCases {
                #expect((row.expected[profile] == nil) != (row.inapplicable[profile] == nil), "\(row.id) \(profile)")
            }
        }
    }
}
