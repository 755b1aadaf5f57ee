public import LifebusLifecycle
import LifebusProtocol

/// How a callback ended — or a transition without one (a suspension, a kill of an idle app) — as the broker's
/// journal records it: its transition's `outcome`, with the reason of the kill for the three outcomes that are kills
/// (`watchdog`, `jetsam`, `killed`), and a handler that answered in time but said it failed (`handlerFailed`).
/// What `LifebusTestBus.expect(_:scene:callback:outcome:within:fileID:filePath:line:column:)` compares.
///
/// A value. `description` is the report's spelling: `ok`, `late`, `killed(watchdog)`, …
public enum CallbackOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Answered within its budget, the handler done.
    case ok
    /// Answered within its budget, but the handler said it failed (a `lifebus subscribe --on` hook that exited
    /// non-zero).
    case failed
    /// Answered after its budget while the watchdog only observes (recorded, not punished).
    case late
    /// The app's process exited, or its connection dropped, without being told to.
    case crashed
    /// The broker ended the app's connection because it did not read what it was sent.
    case disconnected
    /// The app was killed, for `reason`: `.watchdog` (a budget overrun), `.jetsam` (memory pressure), `.user` (swiped
    /// away), `.system` (a suspended app terminated, the grace after `willTerminate`), `.sceneLifecycleRequired`, …
    case killed(KillReason)

    /// The report's spelling: `ok`, `failed`, `late`, `crashed`, `disconnected`, `killed(REASON)`.
    public var description: String {
        switch self {
        case .ok: "ok"
        case .failed: "failed"
        case .late: "late"
        case .crashed: "crashed"
        case .disconnected: "disconnected"
        case .killed(let reason): "killed(\(reason.rawValue))"
        }
    }

    /// The outcome of `record`; a kill's reason is that of the app's `killed` process record nearest to it in the
    /// journal (`journal`: a `watchdog` transition may be a `backgroundTaskExpired` kill), else `.watchdog` for a
    /// watchdog transition and `.system` for the others.
    init(_ record: TransitionRecord, in journal: [JournalEntry]) {
        switch record.outcome {
        case .ok: self = record.handlerFailed ? .failed : .ok
        case .late: self = .late
        case .crashed: self = .crashed
        case .disconnected: self = .disconnected
        case .watchdog: self = .killed(Self.killReason(of: record, in: journal) ?? .watchdog)
        case .jetsam: self = .killed(.jetsam)
        case .killed: self = .killed(Self.killReason(of: record, in: journal) ?? .system)
        }
    }

    /// The reason of the `killed` process record of the record's app nearest to it (by sequence number).
    private static func killReason(of record: TransitionRecord, in journal: [JournalEntry]) -> KillReason? {
        let kills: [(seq: Int64, reason: KillReason)] = journal.compactMap { entry in
            guard case .process(let process) = entry, process.app == record.app, process.event == .killed,
                case .kill(let reason)? = process.reason
            else { return nil }
            return (process.seq, reason)
        }
        return kills.min { abs($0.seq - record.seq) < abs($1.seq - record.seq) }?.reason
    }
}
