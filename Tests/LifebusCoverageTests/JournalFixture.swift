import LifebusCore
import LifebusCoverage
import LifebusLifecycle
import LifebusProtocol

/// Builds journal entries for the coverage tests: a run record per profile, and transitions, process, task, push
/// and protected-data records in the journal's words.
struct JournalFixture {
    private(set) var entries: [JournalEntry] = []
    private var seq: Int64 = 0
    private var eventID: Int64 = 0

    mutating func run(_ profile: Profile) {
        seq += 1
        entries.append(.run(RunRecord(
            seq: seq, reason: .start, brokerVersion: "0", protocolVersion: 1, profile: profile, timeScale: 1,
            clock: "manual", pid: 1, startedWallMs: 0, atMs: 0, wallMs: 0)))
    }

    /// Starts a new event: the following transitions given `event` get its id.
    mutating func fire(_ label: String) -> EventCause {
        eventID += 1
        return EventCause(eventID: eventID, event: label)
    }

    mutating func moved(
        _ app: String, _ callback: LifecycleCallback?, _ from: LifecycleState, _ to: LifecycleState,
        _ outcome: TransitionOutcome = .ok, cause: EventCause?
    ) {
        seq += 1
        entries.append(.transition(TransitionRecord(
            seq: seq, app: app, pid: 1, callback: callback, cause: cause, from: from, to: to, firedMs: 0, sentMs: 0,
            answeredMs: 0, handlerMs: 0, budgetMs: 5000, outcome: outcome, wallMs: 0)))
    }

    mutating func process(_ app: String, _ event: ProcessRecord.Event) {
        seq += 1
        entries.append(.process(ProcessRecord(seq: seq, app: app, pid: 1, event: event, atMs: 0, wallMs: 0)))
    }

    mutating func task(
        _ app: String, _ identifier: String, _ kind: BackgroundTaskKind, _ event: BackgroundTaskRecord.Event,
        success: Bool? = nil
    ) {
        seq += 1
        entries.append(.task(BackgroundTaskRecord(
            seq: seq, app: app, pid: 1, identifier: identifier, kind: kind, event: event, success: success, atMs: 0,
            wallMs: 0)))
    }

    mutating func push(_ app: String, _ event: PushDeliveryRecord.Event, result: BackgroundFetchResult? = nil) {
        seq += 1
        entries.append(.push(PushDeliveryRecord(
            seq: seq, app: app, pid: 1, event: event, result: result, payload: "{}", atMs: 0, wallMs: 0)))
    }

    mutating func protectedData(available: Bool) {
        seq += 1
        entries.append(.protectedData(ProtectedDataRecord(seq: seq, available: available, atMs: 0, wallMs: 0)))
    }
}

extension JournalFixture {
    /// The rows the journal reaches for `app`, per profile (its word; `?` for a run without one).
    func reached(app: String = "A") -> [String: [String]] {
        let coverage = LifecycleCoverage(entries: entries, app: app)
        var result: [String: [String]] = [:]
        for run in coverage.apps.first?.profiles ?? [] {
            result[run.profile?.rawValue ?? "?"] = run.reached.map(\.row)
        }
        return result
    }
}
