public import LifebusProtocol

/// Which of an app's journal entries an expectation looks at (`lifebus expect`'s `--since-…`, the MCP `expect` tool's
/// `since`). A plain value; `select` is pure.
public enum ExpectScope: Sendable, Equatable {
    /// The entries since the last event that caused a transition was fired (any app's), or all before any event:
    /// the transitions, marks, task and push records at or after its firing time and after the last transition an
    /// earlier event caused (so a manual clock, where every entry may share one instant, still cuts at the event).
    case lastEvent
    /// The entries after the app's last mark with this name.
    case sinceMark(String)
    /// The entries after this journal sequence number.
    case sinceSeq(Int64)
    case all

    /// The app's entries in scope, oldest first, and a description of the scope for the report.
    public func select(_ entries: [JournalEntry], app: String) -> (entries: [JournalEntry], description: String) {
        let own = entries.filter { $0.app == app }
        switch self {
        case .all:
            return (own, "all entries")
        case .sinceSeq(let seq):
            return (own.filter { $0.seq > seq }, "entries after #\(seq)")
        case .sinceMark(let name):
            guard let mark = own.last(where: { if case .mark(let m) = $0 { m.name == name } else { false } }) else {
                return ([], "since mark \(name) (never made)")
            }
            return (own.filter { $0.seq > mark.seq }, "since mark \(name) (#\(mark.seq))")
        case .lastEvent:
            let latest = entries.compactMap { entry -> (cause: EventCause, fired: Double)? in
                guard case .transition(let record) = entry, let cause = record.cause, let fired = record.firedMs
                else { return nil }
                return (cause, fired)
            }.max { $0.cause.eventID < $1.cause.eventID }
            guard let latest else { return (own, "all entries (no event fired yet)") }
            let earlier = entries.compactMap { entry -> Int64? in
                guard case .transition(let record) = entry, let cause = record.cause,
                    cause.eventID < latest.cause.eventID
                else { return nil }
                return record.seq
            }.max() ?? 0
            let inScope = own.filter { entry in
                guard entry.seq > earlier else { return false }
                if case .transition(let record) = entry { return record.sentMs >= latest.fired }
                if case .mark(let record) = entry { return record.atMs >= latest.fired }
                if case .task(let record) = entry { return record.atMs >= latest.fired }
                if case .push(let record) = entry { return record.atMs >= latest.fired }
                return false
            }
            return (inScope, "since event \(latest.cause.eventID) (\(latest.cause.event))")
        }
    }
}
