import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The controller events in flight: their numbers, labels, the records their chains produced so far (with their
/// JSON text, comma-separated, as the journal wrote it: the `fire` answer copies it), and the `fire` requests
/// waiting for their answer.
///
/// A value inside the broker machine. Invariant: an event's entries live from `begin` until `finish`, which
/// hands back everything it knew; numbers are never reused; `inFlight(session:)` counts the events a session began
/// that have not finished (what `BrokerLimits.firesInFlightPerController` bounds).
struct EventBook {
    private var nextNumber: UInt64 = 1
    private var labels: [EventID: String] = [:]
    private var owners: [EventID: SessionID] = [:]
    private var inFlightBySession: [SessionID: Int] = [:]
    private var records: [EventID: (records: [TransitionRecord], text: [UInt8])] = [:]
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

    /// Notes a record the event's chain produced, with its JSON text.
    mutating func add(_ record: TransitionRecord, text: [UInt8], to id: EventID) {
        guard labels[id] != nil else { return }
        Self.add(record, text: text, to: &records[id, default: ([], [])])
    }

    private static func add(
        _ record: TransitionRecord, text: [UInt8], to recorded: inout (records: [TransitionRecord], text: [UInt8])
    ) {
        recorded.records.append(record)
        if !recorded.text.isEmpty { recorded.text.append(UInt8(ascii: ",")) }
        recorded.text.append(contentsOf: text)
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

    /// Ends the event: its label, its records (and their text), and who waits for the answer.
    mutating func finish(
        _ id: EventID
    ) -> (label: String, records: [TransitionRecord], text: [UInt8], ticket: Ticket?) {
        if let session = owners.removeValue(forKey: id) {
            let left = (inFlightBySession[session] ?? 1) - 1
            inFlightBySession[session] = left > 0 ? left : nil
        }
        let label = labels.removeValue(forKey: id) ?? "event \(id.rawValue)"
        let recorded = records.removeValue(forKey: id) ?? ([], [])
        return (label, recorded.records, recorded.text, waiting.removeValue(forKey: id))
    }
}
