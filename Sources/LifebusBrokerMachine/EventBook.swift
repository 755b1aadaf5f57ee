import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The controller events in flight: their numbers, labels, the records their chains produced so far, and the
/// `fire` requests waiting for their answer.
///
/// A value inside the broker machine. Invariant: an event's entries live from `begin` until `finish`, which
/// hands back everything it knew; numbers are never reused; `inFlight(session:)` counts the events a session began
/// that have not finished (what `BrokerLimits.firesInFlightPerController` bounds).
struct EventBook {
    private var nextNumber: UInt64 = 1
    private var labels: [EventID: String] = [:]
    private var owners: [EventID: SessionID] = [:]
    private var inFlightBySession: [SessionID: Int] = [:]
    private var records: [EventID: [TransitionRecord]] = [:]
    private var waiting: [EventID: Ticket] = [:]

    /// Numbers a new event fired by `session`; `ticket` (if any) gets the answer when the event's chain completes.
    mutating func begin(label: String, session: SessionID, ticket: Ticket?) -> EventID {
        let id = EventID(nextNumber)
        nextNumber += 1
        labels[id] = label
        owners[id] = session
        inFlightBySession[session, default: 0] += 1
        if let ticket { waiting[id] = ticket }
        return id
    }

    /// The cause an event's callbacks and records carry.
    func cause(_ id: EventID) -> EventCause {
        EventCause(eventID: Int64(id.rawValue), event: labels[id] ?? "event \(id.rawValue)")
    }

    /// Notes a record the event's chain produced.
    mutating func add(_ record: TransitionRecord, to id: EventID) {
        guard labels[id] != nil else { return }
        records[id, default: []].append(record)
    }

    /// How many events `session` fired that have not finished.
    func inFlight(session: SessionID) -> Int {
        inFlightBySession[session] ?? 0
    }

    /// Removes and returns every `fire` still waiting for its event's answer (the broker is stopping and answers
    /// them); the events stay numbered and labelled until they finish.
    mutating func takeAllWaiting() -> [Ticket] {
        defer { waiting.removeAll() }
        return Array(waiting.values)
    }

    /// Ends the event: its label, its records, and who waits for the answer.
    mutating func finish(_ id: EventID) -> (label: String, records: [TransitionRecord], ticket: Ticket?) {
        if let session = owners.removeValue(forKey: id) {
            let left = (inFlightBySession[session] ?? 1) - 1
            inFlightBySession[session] = left > 0 ? left : nil
        }
        let label = labels.removeValue(forKey: id) ?? "event \(id.rawValue)"
        return (label, records.removeValue(forKey: id) ?? [], waiting.removeValue(forKey: id))
    }
}
