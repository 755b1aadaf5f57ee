import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The controller events in flight: their numbers, labels, the records their chains produced so far (with their
/// JSON text, comma-separated, as the journal wrote it: the `fire` answer copies it), and the `fire` requests
/// waiting for their answer.
///
/// A value inside the broker machine, one table entry per event (so a record costs one lookup). Invariant: an
/// event's entry lives from `begin` until `finish`, which hands back everything it knew; numbers are never reused;
/// `inFlight(session:)` counts the events a session began that have not finished (what
/// `BrokerLimits.firesInFlightPerController` bounds).
struct EventBook {
    /// What is known of one event in flight.
    private struct Entry {
        let label: String
        let owner: SessionID
        var ticket: Ticket?
        var records: [TransitionRecord] = []
        var text: [UInt8] = []
    }

    private var nextNumber: UInt64 = 1
    private var entries: [EventID: Entry] = [:]
    private var inFlightBySession: [SessionID: Int] = [:]

    /// Numbers a new event fired by `session`; `ticket` (if any) gets the answer when the event's chain completes.
    mutating func begin(label: String, session: SessionID, ticket: Ticket?) -> EventID {
        let id = EventID(nextNumber)
        nextNumber += 1
        entries[id] = Entry(label: label, owner: session, ticket: ticket)
        inFlightBySession[session, default: 0] += 1
        return id
    }

    /// The cause an event's callbacks and records carry.
    func cause(_ id: EventID) -> EventCause {
        EventCause(eventID: Int64(id.rawValue), event: entries[id]?.label ?? "event \(id.rawValue)")
    }

    /// Notes a record the event's chain produced, with its JSON text.
    mutating func add(_ record: TransitionRecord, text: [UInt8], to id: EventID) {
        guard let index = entries.index(forKey: id) else { return }
        entries.values[index].records.append(record)
        if !entries.values[index].text.isEmpty { entries.values[index].text.append(UInt8(ascii: ",")) }
        entries.values[index].text.append(contentsOf: text)
    }

    /// How many events `session` fired that have not finished.
    func inFlight(session: SessionID) -> Int {
        inFlightBySession[session] ?? 0
    }

    /// Removes and returns every `fire` still waiting for its event's answer (the broker is stopping and answers
    /// them); the events stay numbered and labelled until they finish.
    mutating func takeAllWaiting() -> [Ticket] {
        var tickets: [Ticket] = []
        for index in entries.indices {
            if let ticket = entries.values[index].ticket {
                tickets.append(ticket)
                entries.values[index].ticket = nil
            }
        }
        return tickets
    }

    /// Ends the event: its label, its records (and their text), and who waits for the answer.
    mutating func finish(
        _ id: EventID
    ) -> (label: String, records: [TransitionRecord], text: [UInt8], ticket: Ticket?) {
        guard let entry = entries.removeValue(forKey: id) else { return ("event \(id.rawValue)", [], [], nil) }
        let left = (inFlightBySession[entry.owner] ?? 1) - 1
        inFlightBySession[entry.owner] = left > 0 ? left : nil
        return (entry.label, entry.records, entry.text, entry.ticket)
    }
}
