import Glibc
import LifebusLifecycle
import LifebusProtocol

/// How the CLI shows where broker runs start: a run record is one line of its own,
/// `— run started 2026-11-23T11:00:00Z (lifebusd 0.1.0, pid 4242, ios7, ×1; seq 41) —` (with a scene order seed and
/// the device knobs set over the profile's, as the `lifebusd` flags that set them), and a history is one table per
/// run, each opened by that line (so a run's wide line never widens a table's columns).
extension TransitionFormatting {
    /// The people-facing lines of `entries`: each run record's line, and the other entries in tables between them.
    static func lines(_ entries: [JournalEntry], style: TerminalStyle) -> [String] {
        var lines: [String] = []
        var segment: [JournalEntry] = []
        func closeSegment() {
            guard !segment.isEmpty else { return }
            lines += table(segment).render(style: style)
            segment.removeAll()
        }
        for entry in entries {
            guard case .run(let record) = entry else {
                segment.append(entry)
                continue
            }
            closeSegment()
            lines.append(style.paint(runLine(record), .bold))
        }
        closeSegment()
        return lines
    }

    /// `— run started …  —` for a run's start; `— run … continues in a new journal file —` for the others.
    static func runLine(_ record: RunRecord) -> String {
        let seed = record.scenes.map { ", scene order seed \($0.sceneOrderSeed)" } ?? ""
        let knobs = record.background.map { knobsSet(over: record.profile, $0) } ?? ""
        let settings = "\(record.profile.rawValue), ×\(scale(record.timeScale))\(seed)\(knobs)"
        let facts = "lifebusd \(record.brokerVersion), pid \(record.pid), \(settings)"
        switch record.reason {
        case .start:
            return "— run started \(utcTimestamp(record.startedWallMs)) (\(facts); seq \(record.seq)) —"
        case .rotated, .reopened:
            let why = record.reason == .rotated ? "rotated" : "reopened"
            return "— run started \(utcTimestamp(record.startedWallMs)) continues (journal \(why) "
                + "\(utcTimestamp(record.wallMs)); \(facts); seq \(record.seq)) —"
        }
    }

    /// `, --FLAG WORD` for each device knob `background` sets other than `profile`'s own (`DeviceKnobs`' flags):
    /// what to start `lifebusd` with to replay the run.
    static func knobsSet(over profile: Profile, _ background: RunBackgroundKnobs) -> String {
        func unlessDefault<Value: Equatable>(_ value: Value, _ profileValue: Value) -> Value? {
            value == profileValue ? nil : value
        }
        let knobs = DeviceKnobs(
            queuesProtectedDataNotifications: unlessDefault(
                background.queuesProtectedDataNotifications, profile.queuesProtectedDataNotifications),
            taskKindsAfterForceQuit: unlessDefault(background.taskKindsAfterForceQuit, profile.taskKindsAfterForceQuit),
            connectsSceneAtBackgroundLaunch: unlessDefault(
                background.connectsSceneAtBackgroundLaunch, profile.connectsSceneAtBackgroundLaunch))
        return knobs.words.map { ", --\($0.flag) \($0.word)" }.joined()
    }

    /// Unix milliseconds as `2026-11-23T11:00:00Z` (UTC, whole seconds).
    static func utcTimestamp(_ wallMs: Int64) -> String {
        var seconds = time_t(wallMs / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A time scale: `1`, `0.01`.
    private static func scale(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
