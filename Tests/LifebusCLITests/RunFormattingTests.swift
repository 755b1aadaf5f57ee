import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// Where broker runs start, as `history` and `watch` show it: a line of its own per run record, and a table per run.
@Suite struct RunFormattingTests {
    static let start = RunRecord(
        seq: 7, reason: .start, brokerVersion: "0.1.0", protocolVersion: 1, profile: .ios7, timeScale: 1,
        pid: 4242, startedWallMs: 1_795_431_600_000, atMs: 0.25, wallMs: 1_795_431_600_000
    )

    @Test func aRunStartIsOneLineWithItsTimeAndSettings() {
        #expect(TransitionFormatting.runLine(Self.start)
                == "— run started 2026-11-23T11:00:00Z (lifebusd 0.1.0, pid 4242, ios7, ×1; seq 7) —")
        var scaled = Self.start
        scaled.timeScale = 0.01
        #expect(TransitionFormatting.runLine(scaled).contains("ios7, ×0.01;"))
        var scenes = Self.start
        scenes.profile = .ios17
        scenes.scenes = RunSceneKnobs(profile: .ios17, sceneOrderSeed: 9)
        #expect(TransitionFormatting.runLine(scenes).contains("ios17, ×1, scene order seed 9;"))
    }

    @Test func aRunLineNamesTheDeviceKnobsSetOverTheProfilesAsTheFlagsThatSetThem() {
        var knobs = Self.start
        knobs.profile = .ios17
        knobs.background = RunBackgroundKnobs(
            profile: .ios17, queuesProtectedDataNotifications: true, taskKindsAfterForceQuit: [],
            connectsSceneAtBackgroundLaunch: true)
        #expect(TransitionFormatting.runLine(knobs).contains(
            "ios17, ×1, --tasks-after-force-quit none, --background-launch-scene connects;"))
        knobs.background = RunBackgroundKnobs(
            profile: .ios17, queuesProtectedDataNotifications: true, taskKindsAfterForceQuit: [.processing])
        #expect(TransitionFormatting.runLine(knobs).contains("ios17, ×1;"), "the profile's own knobs say nothing")
    }

    @Test func aRotatedRunSaysItContinues() {
        var rotated = Self.start
        rotated.reason = .rotated
        rotated.wallMs += 60_000
        #expect(TransitionFormatting.runLine(rotated).hasPrefix(
            "— run started 2026-11-23T11:00:00Z continues (journal rotated 2026-11-23T11:01:00Z;"))
    }

    @Test func aHistoryIsATablePerRunEachOpenedByItsRunLine() {
        let entries: [JournalEntry] = [
            .run(Self.start), .transition(JournalReaderTests.transition), .mark(JournalReaderTests.mark),
            .run(Self.start), .transition(JournalReaderTests.other),
        ]
        let lines = TransitionFormatting.lines(entries, style: .plain)
        #expect(lines.count == 7, "\(lines)")
        #expect(lines[0].hasPrefix("— run started ") && lines[4].hasPrefix("— run started "))
        #expect(lines[1].contains("outcome") && lines[5].contains("outcome"), "each run's table has its header")
    }

    @Test func theJournalReaderKeepsRunRecords() {
        let text = JournalReaderTests.lines([.run(Self.start), .transition(JournalReaderTests.transition)])
        let reading = JournalReader.parse(Array(text.utf8))
        #expect(reading.problems.isEmpty)
        #expect(reading.entries == [.run(Self.start), .transition(JournalReaderTests.transition)])
        #expect(HistoryOutput.select(reading.entries, app: "com.example.A", limit: nil).count == 1,
                "an app's history leaves run records out")
    }

    @Test func longMarkDataIsAbbreviatedInATable() {
        var mark = JournalReaderTests.mark
        mark.data = ["text": .string(String(repeating: "m", count: 5000))]
        let cell = TransitionFormatting.cells(mark).last?.text ?? ""
        #expect(cell.count == TransitionFormatting.maxDataWidth && cell.hasSuffix("…"))
    }
}
