import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` the kit cannot run (`LifecycleTable.driverRows`), through the core's
/// `Harness`: the exact journal, `start`/`kill`/`expiring` lines included, on a virtual device.
@Suite("Protocol/lifecycle.md, row by row")
struct LifecycleTableTests {
    @Test("each row the kit cannot run behaves as specified under each profile",
          arguments: LifecycleTable.driverRows + LifecycleTable.sceneRows, Profile.allCases)
    func row(_ row: Row, _ profile: Profile) throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        var harness = Harness(profile: profile)
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
        #expect(Set(LifecycleTable.all.map(\.id)).count == LifecycleTable.all.count)
    }
}
