import Glibc
public import LifebusBrokerMachine
public import LifebusLifecycle
public import LifebusProtocol
public import Logging

/// Every transition, mark and run record the broker made: appended to the journal file (one JSON line each) and
/// kept in memory for `history`.
///
/// Owns the `JournalFile`, the lines not yet written, the sequence numbers, the last `HistoryParams.retained`
/// entries and the state of a failure streak. Bound to the broker's loop. Lines are gathered and written with one
/// write(2) per `flush()`; the broker flushes (and under `--journal-sync` fdatasyncs) before it tells anyone of an
/// entry and at the end of each loop turn (and the journal itself once `earlyWriteBytes` wait), so a killed broker
/// loses nothing it reported. Invariants: `seq` values increase by one in append order, in the file and in memory
/// alike, and continue the file's last `seq` across runs; the file is whole lines; lines that cannot be written are
/// kept (at most `maxUnwrittenBytes`) and retried.
public final class Journal: JournalPort {
    /// Bytes of unwritten lines kept while the file cannot be written; beyond it they are dropped (and logged).
    static let maxUnwrittenBytes = 8 * 1024 * 1024
    /// Lines gathered beyond this many bytes are written at once rather than at the end of the turn: a fan-out to
    /// 1,000 apps journals about 1 MB in one turn, which would otherwise peak in a buffer grown by doubling.
    static let earlyWriteBytes = 64 * 1024
    /// The most room the line buffer keeps between flushes: a turn's lines (up to `earlyWriteBytes` and one line
    /// more) then go into room already there instead of a buffer grown by doubling anew each turn.
    static let retainedUnwrittenCapacity = 2 * earlyWriteBytes

    private let file: JournalFile?
    private let settings: JournalSettings
    private var logger: Logger
    /// What every append changes, in one stored property (one exclusivity decision for all of it).
    private struct Appended {
        /// The entries `history` sees: at most `HistoryParams.retained`, `HistoryParams.retainedBytes` of lines.
        var recent = HistoryWindow()
        /// The lines not yet in the file, each ending in a newline.
        var unwritten: [UInt8] = []
        var unwrittenEntries = 0
        var lastSequence: Int64 = 0
    }

    // Unchecked: changed only by this class, through pure value code (`HistoryWindow`, `Array`) or a write(2) of the
    // bytes (`JournalFile.append`); nothing called during an access can reach the journal again.
    @exclusivity(unchecked) private var appended = Appended()
    private var unsynced = false
    /// The `seq` of the last entry appended (0 for none yet).
    public var lastSequence: Int64 { appended.lastSequence }
    /// Entries with a `seq` up to this one may be missing from the file (dropped during a failure streak).
    public private(set) var droppedThrough: Int64 = 0
    /// The errno of the current failure streak; `nil` while the file takes every write.
    public private(set) var failure: Int32?
    private var describeRun: ((Int64, RunRecord.Reason) -> RunRecord)?

    /// Opens the journal file of `settings` (`nil` path: memory only), cuts a torn last line and continues its `seq`
    /// — or, when it holds no whole line, the `seq` of its newest rotated file (a crash inside a rotation).
    public init(settings: JournalSettings, logger: Logger) throws(JournalError) {
        self.settings = settings
        self.logger = logger
        guard let path = settings.path else {
            file = nil
            return
        }
        let file = try JournalFile(path: path)
        self.file = file
        let recovery = file.recover()
        appended.lastSequence = recovery.lastSequence ?? file.lastRotatedSequence() ?? 0
        syncFolderIfSyncing()
        if recovery.cutBytes > 0 {
            logger.warning("cut a torn last line off the journal (the broker was stopped mid-write)", metadata: [
                "lifebus.journal.path": "\(path)", "lifebus.journal.cutBytes": "\(recovery.cutBytes)",
            ])
        }
    }

    /// A journal kept in memory only.
    public static func inMemory() -> Journal {
        do {
            return try Journal(settings: JournalSettings(path: nil), logger: Logger(label: "lifebusd.journal"))
        } catch {
            preconditionFailure("a journal without a file cannot fail")
        }
    }

    deinit {
        flush()
    }

    /// Appends the record that opens this run; `describe` makes the run records of this run (start, rotation…).
    public func beginRun(_ describe: @escaping (Int64, RunRecord.Reason) -> RunRecord) {
        describeRun = describe
        append(.run(describe(nextSequence(), .start)))
    }

    /// The number the next entry gets.
    func nextSequence() -> Int64 {
        appended.lastSequence + 1
    }

    /// Appends an entry made with `nextSequence()`; rotates the file once it reaches the size cap.
    public func append(_ entry: JournalEntry) {
        guard file != nil else { return keep(entry, bytes: entry.encodedSize) }
        let before = appended.unwritten.count
        entry.write(to: &appended.unwritten)
        appended.unwritten.append(0x0A)
        appended.unwrittenEntries += 1
        keep(entry, bytes: appended.unwritten.count - before)
    }

    /// `append(_:)` for a transition, in one pass from its integer times: its text is written straight into the
    /// unwritten lines (without a file, into `scratch`), lent to `text`, and the history window packs the
    /// transition from its integers (no entry of doubles).
    public func appendTransition(
        _ transition: JournaledTransition, of app: AppID, text: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let lineBytes: Int
        if file != nil {
            let start = appended.unwritten.count
            transition.write(to: &appended.unwritten)
            lineBytes = appended.unwritten.count - start + 1
            appended.unwritten.withUnsafeBufferPointer { text(UnsafeBufferPointer(rebasing: $0[start...])) }
            appended.unwritten.append(0x0A)
            appended.unwrittenEntries += 1
        } else {
            var line: [UInt8] = []
            transition.write(to: &line)
            lineBytes = line.count + 1
            line.withUnsafeBufferPointer(text)
        }
        appended.lastSequence = transition.seq
        appended.recent.appendTransition(transition, of: app, lineBytes: lineBytes)
        writeOrDropAsTheFileAsks()
    }

    /// Numbers the entry, keeps it for `history` and rotates or drops as the file's state asks.
    private func keep(_ entry: JournalEntry, bytes: Int) {
        appended.lastSequence = entry.seq
        // Memory keeps a window bounded in count and in bytes; the file keeps everything.
        appended.recent.append(entry, lineBytes: bytes)
        writeOrDropAsTheFileAsks()
    }

    /// Rotates at the size cap, writes early once `earlyWriteBytes` wait, drops beyond `maxUnwrittenBytes` while the
    /// file fails.
    private func writeOrDropAsTheFileAsks() {
        guard let file else { return }
        if let cap = settings.maxBytes, file.size > 0, file.size + appended.unwritten.count >= cap {
            rotate()
        }
        if failure == nil, appended.unwritten.count >= Self.earlyWriteBytes {
            flush()
        }
        if failure != nil, appended.unwritten.count > Self.maxUnwrittenBytes {
            dropUnwritten()
        }
    }

    /// Whether appended lines wait to be written.
    public var hasUnwrittenLines: Bool { !appended.unwritten.isEmpty }

    /// Writes every appended line to the file; returns whether all of them are in it.
    @discardableResult
    public func flush() -> Bool {
        guard let file, !appended.unwritten.isEmpty else { return true }
        if let code = file.append(appended.unwritten) {
            noteFailure(code, "write")
            return false
        }
        appended.unwritten.removeAll(keepingCapacity: appended.unwritten.capacity <= Self.retainedUnwrittenCapacity)
        appended.unwrittenEntries = 0
        unsynced = settings.syncs
        noteSuccess()
        return true
    }

    /// `flush()`, then fdatasync(2) under `--journal-sync`; returns whether every appended line is in the file
    /// (and on disk, when syncing).
    public func commit() -> Bool {
        guard flush() else { return false }
        guard unsynced, let file else { return true }
        if let code = file.sync() {
            noteFailure(code, "fdatasync")
            return false
        }
        unsynced = false
        return true
    }

    /// Closes the file and opens the same path again (for logrotate, on SIGHUP); the run goes on in it, opened by
    /// a `reopened` run record.
    public func reopen() {
        guard let file else { return }
        _ = commit()
        if let code = file.reopen() {
            noteFailure(code, "open")
        } else {
            _ = file.recover()
            syncFolderIfSyncing()
            logger.info("journal reopened", metadata: ["lifebus.journal.path": "\(settings.path ?? "")"])
        }
        appendRunRecord(.reopened)
    }

    /// The retained entries, oldest first, of one app or all (`HistoryPage` picks a page of them).
    public func entries(app: String?) -> [JournalEntry] {
        appended.recent.entries(app: app)
    }

    /// The last `count` transitions of `app`, oldest first.
    public func lastTransitions(of app: String, count: Int) -> [TransitionRecord] {
        appended.recent.lastTransitions(of: app, count: count)
    }

    private func rotate() {
        guard let file, commit() else { return }
        if let code = file.rotate() {
            logger.error("cannot rotate the journal; it keeps growing", metadata: [
                "lifebus.journal.path": "\(file.path)", "lifebus.error": "\(String(cString: strerror(code)))",
            ])
            return
        }
        logger.info("rotated the journal", metadata: ["lifebus.journal.path": "\(file.path)"])
        syncFolderIfSyncing()
        appendRunRecord(.rotated)
    }

    /// Under `--journal-sync`, a file the journal created or renamed is named on disk before anyone is answered.
    private func syncFolderIfSyncing() {
        guard settings.syncs, let file, let code = file.syncFolder() else { return }
        logger.warning("cannot fsync the journal's folder: a crash may lose the file's new name", metadata: [
            "lifebus.journal.path": "\(file.path)", "lifebus.error": "\(String(cString: strerror(code)))",
        ])
    }

    private func appendRunRecord(_ reason: RunRecord.Reason) {
        guard let describeRun else { return }
        append(.run(describeRun(nextSequence(), reason)))
    }

    private func dropUnwritten() {
        logger.error("dropped journal lines that could not be written", metadata: [
            "lifebus.journal.droppedEntries": "\(appended.unwrittenEntries)",
            "lifebus.journal.droppedBytes": "\(appended.unwritten.count)",
        ])
        droppedThrough = appended.lastSequence
        appended.unwritten.removeAll()
        appended.unwrittenEntries = 0
    }

    private func noteFailure(_ code: Int32, _ operation: String) {
        guard failure == nil else { return }  // logged once per streak
        failure = code
        logger.error("cannot write the journal: transitions are not recorded and fire fails until it can", metadata: [
            "lifebus.journal.path": "\(file?.path ?? "-")", "lifebus.journal.operation": "\(operation)",
            "lifebus.error": "\(String(cString: strerror(code)))", "lifebus.errno": "\(code)",
        ])
    }

    private func noteSuccess() {
        guard let code = failure else { return }
        failure = nil
        logger.notice("the journal is written again", metadata: [
            "lifebus.journal.path": "\(file?.path ?? "-")",
            "lifebus.journal.failedWith": "\(String(cString: strerror(code)))",
        ])
    }
}
