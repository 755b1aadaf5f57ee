import Glibc
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The machine's side of the journal: appending entries, and holding back what tells anyone of an entry (a `fire`
/// or `mark` answer, an observer's notification) until the entry is in the file — at once by default, after the loop
/// turn's one commit (fdatasync, group commit) under `--journal-sync`.
extension BrokerMachine {
    /// What tells someone of journal entries, held until they are written.
    enum Delivery {
        /// A `fire` (or `reset`) answered with its event's records.
        case event(Ticket, EventID, EventBook.Finished)
        /// A `fire` refused by the core (after the records made before the refusal).
        case refusal(Ticket, RPCError)
        /// A `mark` answered once its record is in.
        case mark(Ticket, seq: Int64, name: String)
        /// A success that must not overtake the records made before it (an `advance`'s answer).
        case answer(Ticket, JSONValue)
        /// An entry told to every observer (recorded or not: they watch what happens).
        case observers(method: String, params: JSONValue)
    }

    /// Appends to the journal; the line is written before anyone hears of it, at the latest when this turn ends.
    mutating func appendToJournal(_ entry: JournalEntry, into effects: inout [BrokerEffect]) {
        journal.append(entry)
        if journal.hasUnwrittenLines { requestCommit(into: &effects) }
    }

    /// `appendToJournal(_:into:)` for a transition, its text written once (`JournalPort.appendTransition`) and,
    /// when an event caused it, copied into the event's `fire` answer.
    mutating func appendToJournal(
        _ transition: JournaledTransition, of app: AppID, cause: EventID?, into effects: inout [BrokerEffect]
    ) {
        let journal = self.journal
        if let cause {
            journal.appendTransition(transition, of: app) {
                deliveries.events.add(seq: transition.seq, text: $0, to: cause)
            }
        } else {
            journal.appendTransition(transition, of: app) { _ in }
        }
        if journal.hasUnwrittenLines { requestCommit(into: &effects) }
    }

    /// Nanoseconds from the broker's start to `instant` (`milliseconds(_:)` as an integer), as the journal's
    /// one-pass path carries the core's times.
    func nanoseconds(_ instant: Instant) -> Int64 {
        instant.nanoseconds(since: epoch)
    }

    /// Tells every observer of an entry once the entry is in the journal; `params` is only built when someone
    /// observes (a record's `JSONValue` tree costs as much as the rest of recording it).
    mutating func notifyObservers(
        _ method: String, _ params: @autoclosure () -> JSONValue, into effects: inout [BrokerEffect]
    ) {
        guard !sessions.observers.isEmpty else { return }
        afterJournaled(.observers(method: method, params: params()), into: &effects)
    }

    /// Delivers once everything appended so far is in the journal file (and on disk under `--journal-sync`), or
    /// once that failed. Without `--journal-sync` that is now.
    mutating func afterJournaled(_ delivery: Delivery, into effects: inout [BrokerEffect]) {
        guard settings.journalSyncs, !isShuttingDown else {
            deliver(delivery, written: journal.flush(), into: &effects)
            // Every line is written and nothing waits for a sync: the turn's commit, if one was asked for, has
            // nothing left to do (`isCommitRequested` tells the driver it may skip it).
            if !settings.journalSyncs, !journal.hasUnwrittenLines { deliveries.commitNotNeeded() }
            return
        }
        deliveries.hold(delivery)
        requestCommit(into: &effects)
    }

    /// Writes (and under `--journal-sync` syncs) the turn's lines, then delivers what waited for them.
    mutating func commitJournal(into effects: inout [BrokerEffect]) {
        let held = deliveries.takeHeld()
        let committed = journal.commit()
        for delivery in held {
            deliver(delivery, written: committed, into: &effects)
        }
    }

    private mutating func requestCommit(into effects: inout [BrokerEffect]) {
        guard !isShuttingDown, deliveries.requestCommit() else { return }
        effects.append(.commitJournal)
    }

    private mutating func deliver(_ delivery: Delivery, written: Bool, into effects: inout [BrokerEffect]) {
        switch delivery {
        case .event(let ticket, let id, let finished):
            let eventID = Int64(id.rawValue)
            // Records are numbered in order: the first is the one the journal would have dropped first.
            guard written && (finished.firstSeq.map { $0 > journal.droppedThrough } ?? true) else {
                let error = journalUnavailable(
                    "\(finished.label) happened but is not recorded", data: ["eventID": .integer(eventID)])
                effects.append(.reply(ticket, .failure(error)))
                return
            }
            effects.append(.replyFire(ticket, WrittenFireResult(
                eventID: eventID, event: finished.label, completed: true, transitionCount: finished.recordCount,
                transitionsText: finished.text)))
        case .refusal(let ticket, let error):
            effects.append(.reply(ticket, .failure(error)))
        case .answer(let ticket, let result):
            effects.append(.reply(ticket, .success(result)))
        case .mark(let ticket, let seq, let name):
            guard written && seq > journal.droppedThrough else {
                effects.append(.reply(ticket, .failure(journalUnavailable("the mark \(name) is not recorded"))))
                return
            }
            effects.append(.reply(ticket, .success(EmptyResult.json)))
        case .observers(let method, let params):
            for observer in sessions.observers {
                effects.append(.notify(observer, method: method, params: params))
            }
        }
    }

    /// The error a request gets when what it asked for cannot be recorded.
    func journalUnavailable(_ what: String, data: JSONObject = [:]) -> RPCError {
        var data = data
        let reason: String
        if let code = journal.failure {
            data["errno"] = .integer(Int64(code))
            reason = String(cString: strerror(code))
        } else {
            reason = "a write failed"
        }
        return RPCError(.journalUnavailable, "\(what): the journal cannot be written (\(reason))", data: data)
    }
}
