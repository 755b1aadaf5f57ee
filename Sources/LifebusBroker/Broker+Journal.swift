import Glibc
import LifebusIO
import LifebusProtocol

/// The broker's side of the journal: the run record that opens each run, appending entries, and holding back what
/// tells anyone of an entry (a `fire` or `mark` answer, an observer's notification) until the entry is in the file
/// — at once by default, after the loop turn's one fdatasync under `--journal-sync` (group commit).
extension Broker {
    /// Opens the run: the first journal entry of this broker process says who wrote what follows.
    func beginJournalRun() {
        let startedWallMs = clock.wallMilliseconds()
        let configuration = self.configuration
        journal.beginRun { [unowned self] seq, reason in
            RunRecord(
                seq: seq,
                reason: reason,
                brokerVersion: LifebusVersion.current,
                protocolVersion: Int64(ProtocolVersion.current),
                profile: configuration.profile.rawValue,
                timeScale: configuration.timeScale,
                pid: getpid(),
                startedWallMs: startedWallMs,
                atMs: self.clock.milliseconds(self.clock.now()),
                wallMs: self.clock.wallMilliseconds()
            )
        }
        scheduleJournalCommit()
    }

    /// Closes the journal file and opens its path again (after logrotate moved it; the daemon calls this on SIGHUP).
    public func reopenJournal() {
        guard !isShuttingDown else { return }
        journal.reopen()
        scheduleJournalCommit()
    }

    /// Appends to the journal; the line is written before anyone hears of it, at the latest when this loop turn ends.
    func appendToJournal(_ entry: JournalEntry) {
        journal.append(entry)
        if journal.hasUnwrittenLines { scheduleJournalCommit() }
    }

    /// Runs `deliver` once everything appended so far is in the journal file (and on disk under `--journal-sync`),
    /// with `true`, or once that failed, with `false`. Without `--journal-sync` that is now.
    func afterJournaled(_ deliver: @escaping (Bool) -> Void) {
        guard configuration.journalSyncs, !isShuttingDown else {
            deliver(journal.flush())
            return
        }
        journalDeliveries.append(deliver)
        scheduleJournalCommit()
    }

    /// Whether `records` are all in the journal file (none was dropped during a failure streak).
    func journaled(_ records: [TransitionRecord]) -> Bool {
        records.allSatisfy { $0.seq > journal.droppedThrough }
    }

    /// The error a request gets when what it asked for cannot be recorded.
    func journalUnavailable(_ what: String, data: JSONObject = [:]) -> RPCError {
        let reason = journal.failure.map { String(cString: strerror($0)) } ?? "a write failed"
        var data = data
        if let code = journal.failure { data["errno"] = .integer(Int64(code)) }
        return RPCError(.journalUnavailable, "\(what): the journal cannot be written (\(reason))", data: data)
    }

    /// Arms the end-of-turn commit (a zero timer runs in the loop's next timer phase, after this turn's I/O).
    private func scheduleJournalCommit() {
        guard journalFlushTimer?.isActive != true, !isShuttingDown else { return }
        do throws(UVError) {
            if journalFlushTimer == nil { journalFlushTimer = try LoopTimer(loop: loop) }
        } catch {
            commitJournal()
            return
        }
        journalFlushTimer?.start(after: .zero) { [unowned self] in self.commitJournal() }
    }

    /// Writes (and under `--journal-sync` syncs) the turn's lines, then delivers what waited for them.
    func commitJournal() {
        let committed = journal.commit()
        let deliveries = journalDeliveries
        journalDeliveries.removeAll()
        for deliver in deliveries {
            deliver(committed)
        }
    }
}
