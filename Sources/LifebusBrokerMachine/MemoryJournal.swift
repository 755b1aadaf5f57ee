import LifebusLifecycle
public import LifebusProtocol

/// A journal in memory, for machine tests and `LifebusTesting`'s in-memory bus: every entry appended, which of them
/// are "written", and a switch that makes writes fail (as a full disk does) until turned off.
///
/// A reference, as the machine holds its journal port; used on the test's thread only. Invariant: `written` is a
/// prefix of `entries`; while `failing`, nothing more is written.
public final class MemoryJournal: JournalPort {
    public init() {}

    public private(set) var entries: [JournalEntry] = []
    public private(set) var written = 0
    /// How many times the machine committed (the end-of-turn commit, or fdatasync under `--journal-sync`).
    public private(set) var commits = 0
    /// Writes fail with this errno while set.
    public var failing: Int32?

    public var lastSequence: Int64 { Int64(entries.count) }
    public var droppedThrough: Int64 { 0 }
    public var failure: Int32? { failing }
    public var hasUnwrittenLines: Bool { written < entries.count }

    public func append(_ entry: JournalEntry) {
        entries.append(entry)
    }

    public func flush() -> Bool {
        guard failing == nil else { return false }
        written = entries.count
        return true
    }

    public func commit() -> Bool {
        commits += 1
        return flush()
    }

    public func entries(app: String?) -> [JournalEntry] {
        entries.filter { app == nil || $0.app == app }
    }

    public func lastTransitions(of app: String, count: Int) -> [TransitionRecord] {
        let all = entries.compactMap { entry -> TransitionRecord? in
            if case .transition(let record) = entry, record.app == app { return record }
            return nil
        }
        return Array(all.suffix(count))
    }
}
