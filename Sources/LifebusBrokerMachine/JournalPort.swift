public import LifebusLifecycle
public import LifebusProtocol

/// The journal as the broker machine uses it: entries appended in `seq` order, written (`flush`) before anyone is
/// told of them, committed (written and, under `--journal-sync`, synced) once per loop turn, and the retained window
/// `history` and `wait` read.
///
/// The one port the machine calls synchronously rather than through an effect: a write that fails must refuse the
/// very request that found it (`lifebus.JournalUnavailable`), before anything is injected. The broker's `Journal`
/// (over its file) conforms; machine tests use one in memory. Bound to the machine's thread.
public protocol JournalPort: AnyObject {
    /// The `seq` of the last entry appended (0 for none yet).
    var lastSequence: Int64 { get }
    /// Entries with a `seq` up to this one may be missing from the file (dropped during a failure streak).
    var droppedThrough: Int64 { get }
    /// The errno of the current failure streak; `nil` while every write succeeds.
    var failure: Int32? { get }
    /// Whether appended lines wait to be written.
    var hasUnwrittenLines: Bool { get }
    /// Appends an entry whose `seq` is `lastSequence + 1`.
    func append(_ entry: JournalEntry)
    /// `append(.transition(transition.record))` in one pass: the transition's JSON text (`transition.write(to:)`,
    /// from its whole nanoseconds) is written once, as the next line, and lent to `text` (without its newline)
    /// before this returns — the machine copies it into the event's `fire` answer. `app` is `transition.app` as the
    /// machine's id (its digest made once: the history window interns it without hashing the name).
    func appendTransition(
        _ transition: JournaledTransition, of app: AppID, text: (UnsafeBufferPointer<UInt8>) -> Void)
    /// Writes every appended line; returns whether all of them are in the file.
    @discardableResult func flush() -> Bool
    /// `flush()`, then a sync under `--journal-sync`; returns whether everything appended is in the file (on disk).
    func commit() -> Bool
    /// The retained entries, oldest first, of one app or all.
    func entries(app: String?) -> [JournalEntry]
    /// The last `count` transitions of `app`, oldest first.
    func lastTransitions(of app: String, count: Int) -> [TransitionRecord]
}

extension JournalPort {
    /// A journal that keeps no text of its own writes it for `text` only.
    public func appendTransition(
        _ transition: JournaledTransition, of app: AppID, text: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var line: [UInt8] = []
        transition.write(to: &line)
        line.withUnsafeBufferPointer(text)
        append(.transition(transition.record))
    }
}
