import Glibc
import LifebusCore
import LifebusLifecycle
import LifecycleContract
import Testing

/// The rows of `Protocol/lifecycle.md` the kit cannot run (`LifecycleTable.driverRows`) and every scene row
/// (`LifecycleTable.sceneRows`) and every background row (`LifecycleTable.backgroundRows`, on the broker's manual
/// clock), under every profile, through a real `lifebusd` with real app connections (each held
/// by its own process, which the broker's kills really hit).
@Suite("Protocol/lifecycle.md, row by row, through a real broker")
struct LifecycleRowEndToEndTests {
    @Test("each row the kit cannot run behaves as specified under each profile, end to end",
          arguments: RowRunner.slowestFirst(LifecycleTable.driverRows), Profile.allCases)
    func row(_ row: Row, _ profile: Profile) async throws {
        try await play(row, profile)
    }

    @Test("each scene row behaves as specified under each profile it applies to, end to end",
          arguments: RowRunner.slowestFirst(LifecycleTable.sceneRows), Profile.allCases)
    func sceneRow(_ row: Row, _ profile: Profile) async throws {
        try await play(row, profile)
    }

    @Test("each background row behaves as specified under each profile it applies to, end to end",
          arguments: LifecycleTable.backgroundRows, Profile.allCases)
    func backgroundRow(_ row: Row, _ profile: Profile) async throws {
        try await play(row, profile)
    }

    private func play(_ row: Row, _ profile: Profile) async throws {
        guard let expected = row.expected[profile] else {
            #expect(row.inapplicable[profile] != nil, "row \(row.id) has no expectation for \(profile)")
            return
        }
        let outcome = await RowLane.shared.run { RowRunner.play(row, profile: profile) }
        let observed = outcome.observation
        let lines = ExpectedLines(expected.journal)
        let label = "\(row.id) \(profile)"
        #expect(outcome.failure == nil, "\(label): \(outcome.failure ?? "")")
        #expect(observed.transitions == lines.transitions, "\(label): transitions (history)")
        #expect(observed.processes == lines.processes, "\(label): process starts and kills (broker log)")
        #expect(lines.rejectionsMatch(observed.rejections),
                "\(label): rejections \(observed.rejections) ≠ \(lines.rejections) (notes: \(observed.notes))")
        #expect(observed.expiring == lines.expiring, "\(label): background task expirations")
        #expect(observed.launches == lines.launches, "\(label): background launches (callbacks' launchReason)")
        #expect(observed.situation == expected.situation, "\(label): situation (status)")
        #expect(observed.problems.isEmpty, "\(label): \(observed.problems)")
        #expect(outcome.killedProcessStatuses.allSatisfy { $0 == 128 + SIGKILL },
                "\(label): each process the broker killed ended by SIGKILL: \(outcome.killedProcessStatuses)")
        #expect(outcome.brokerExitStatus == 0, "\(label): the broker stops cleanly")
    }
}
