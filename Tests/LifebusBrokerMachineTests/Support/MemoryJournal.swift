import LifebusBrokerMachine
import LifebusLifecycle
import LifebusProtocol

/// A journal in memory for machine tests: every entry appended, which of them are "written", and a switch that makes
/// writes fail (as a full disk does) until turned off.
///
/// A reference, as the machine holds its journal port; used on the test's thread only. Invariant: `written` is a
/// prefix of `entries`; while `failing`, nothing more is written.
final class MemoryJournal: JournalPort {
    private(set) var entries: [JournalEntry] = []
    private(set) var written = 0
    /// How many times the machine committed (the end-of-turn commit, or fdatasync under `--journal-sync`).
    private(set) var commits = 0
    /// Writes fail with this errno while set.
    var failing: Int32?

    var lastSequence: Int64 { Int64(entries.count) }
    var droppedThrough: Int64 { 0 }
    var failure: Int32? { failing }
    var hasUnwrittenLines: Bool { written < entries.count }

    func append(_ entry: JournalEntry) {
        entries.append(entry)
    }

    func flush() -> Bool {
        guard failing == nil else { return false }
        written = entries.count
        return true
    }

    func commit() -> Bool {
        commits += 1
        return flush()
    }

    func entries(app: String?) -> [JournalEntry] {
        entries.filter { app == nil || $0.app == app }
    }

    func lastTransitions(of app: String, count: Int) -> [TransitionRecord] {
        let all = entries.compactMap { entry -> TransitionRecord? in
            if case .transition(let record) = entry, record.app == app { return record }
            return nil
        }
        return Array(all.suffix(count))
    }

    /// The transitions written so far, as `app: from -> to (outcome)` lines.
    var writtenTransitions: [String] {
        entries.prefix(written).compactMap { entry in
            guard case .transition(let record) = entry else { return nil }
            return "\(record.app): \(record.from.rawValue) -> \(record.to.rawValue) (\(record.outcome.rawValue))"
        }
    }
}
