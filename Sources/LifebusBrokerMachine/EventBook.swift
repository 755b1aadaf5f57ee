import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The controller events in flight: their numbers, labels, the records their chains produced so far (as the JSON
/// text the journal wrote, comma-separated, which the `fire` answer carries: the records themselves are not kept), and
/// the `fire` requests waiting for their answer.
///
/// A value inside the broker machine, one table entry per event (so a record costs one lookup). Invariant: an
/// event's entry lives from `begin` until `finish`, which hands back everything it knew; numbers are never reused;
/// `inFlight(session:)` counts the events a session began that have not finished (what
/// `BrokerLimits.firesInFlightPerController` bounds).
struct EventBook {
    /// What is known of one event in flight.
    private struct Entry {
        /// The event's number and label, with their wire text written once (what every callback and record of its
        /// chain carries).
        let cause: EventCause
        var label: String { cause.event }
        let owner: SessionID
        var ticket: Ticket?
        var recordCount = 0
        /// The callbacks the event's chain sent: each is likely to bring a record.
        var callbacksSent = 0
        /// The first record's journal sequence number (the lowest: they are numbered in order).
        var firstSeq: Int64?
        var text: [UInt8] = []

        /// Counts a callback sent and returns the cause, in one access (reading a member through `values` would
        /// copy the entry).
        mutating func countCallback() -> EventCause {
            callbacksSent += 1
            return cause
        }

        /// Notes one more record, in place. When the text is full, it makes room for the records the callbacks
        /// still out are likely to bring (each about this one's size, a quarter more to spare), at least doubling:
        /// a fan-out's text is then copied about once, not at every doubling from one record to a thousand. The
        /// room is a spare's when one is large enough, the smaller first (taken: that spare is left empty).
        mutating func add(seq: Int64, text recordText: UnsafeBufferPointer<UInt8>, spares: inout Spares) {
            recordCount += 1
            if firstSeq == nil { firstSeq = seq }
            let needed = text.count + recordText.count + 1
            if needed > text.capacity {
                let expected = max(callbacksSent - recordCount, 0) * (recordText.count + 1) * 5 / 4
                let wanted = max(needed + expected, 2 * text.capacity)
                if spares.small.capacity >= wanted {
                    take(&spares.small)
                } else if spares.large.capacity >= wanted {
                    take(&spares.large)
                } else {
                    text.reserveCapacity(wanted)
                }
            }
            if !text.isEmpty { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: recordText)
        }

        /// Moves the text so far into `spare`'s room and leaves `spare` empty.
        private mutating func take(_ spare: inout [UInt8]) {
            var room: [UInt8] = []
            swap(&room, &spare)
            room.removeAll(keepingCapacity: true)  // in place once the answer that held it is written
            room.append(contentsOf: text)
            swap(&text, &room)
        }
    }

    /// The texts of the last events that finished, still held after `finish` handed them out: once an answer is
    /// written and dropped, this is its text's only holder, and the next event whose records fit takes its room
    /// over. A one-record `fire` then allocates and frees nothing for its text, and a fan-out's answer reuses pages
    /// already mapped instead of mapping and faulting in fresh ones every time (the broker's allocator maps blocks of
    /// 128 KiB and more on their own). At most two buffers: one under `spareTextMinimum` bytes of room, and one
    /// the size of one large answer.
    struct Spares {
        var small: [UInt8] = []
        var large: [UInt8] = []
    }

    private var nextNumber: UInt64 = 1
    private var entries: [EventID: Entry] = [:]
    private var inFlightBySession: [SessionID: Int] = [:]
    private var spares = Spares()
    /// The room from which a finished event's text is kept as the large spare.
    static let spareTextMinimum = 64 * 1024

    /// Numbers a new event fired by `session`; `ticket` (if any) gets the answer when the event's chain completes.
    mutating func begin(label: String, session: SessionID, ticket: Ticket?) -> EventID {
        let id = EventID(nextNumber)
        nextNumber += 1
        entries[id] = Entry(
            cause: EventCause(eventID: Int64(id.rawValue), event: label), owner: session, ticket: ticket)
        inFlightBySession[session, default: 0] += 1
        return id
    }

    /// The cause an event's callbacks and records carry.
    func cause(_ id: EventID) -> EventCause {
        entries[id]?.cause ?? EventCause(eventID: Int64(id.rawValue), event: "event \(id.rawValue)")
    }

    /// `cause(_:)` for a callback the event's chain sends, counted (how much room the event's text makes).
    mutating func causeOfCallback(_ id: EventID) -> EventCause {
        guard let index = entries.index(forKey: id) else { return cause(id) }
        return entries.values[index].countCallback()
    }

    /// Notes a record the event's chain produced: its journal sequence number and its JSON text.
    mutating func add(seq: Int64, text: UnsafeBufferPointer<UInt8>, to id: EventID) {
        guard let index = entries.index(forKey: id) else { return }
        // One access: reading a member through `values` would copy the entry.
        entries.values[index].add(seq: seq, text: text, spares: &spares)
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

    /// What an event produced, handed back when it finishes.
    struct Finished {
        let label: String
        let recordCount: Int
        /// The first record's journal sequence number, `nil` without records.
        let firstSeq: Int64?
        /// The records' JSON text, comma-separated.
        let text: [UInt8]
        let ticket: Ticket?
    }

    /// Ends the event: its label, its records' count, first number and text, and who waits for the answer.
    mutating func finish(_ id: EventID) -> Finished {
        guard let entry = entries.removeValue(forKey: id) else {
            return Finished(label: "event \(id.rawValue)", recordCount: 0, firstSeq: nil, text: [], ticket: nil)
        }
        if entry.text.capacity >= Self.spareTextMinimum {
            spares.large = entry.text
        } else if entry.text.capacity > 0 {
            spares.small = entry.text
        }
        let left = (inFlightBySession[entry.owner] ?? 1) - 1
        inFlightBySession[entry.owner] = left > 0 ? left : nil
        return Finished(label: entry.label, recordCount: entry.recordCount, firstSeq: entry.firstSeq, text: entry.text,
                        ticket: entry.ticket)
    }
}
