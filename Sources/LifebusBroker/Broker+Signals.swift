import LifebusIO
import Logging

/// What the daemon's maintenance signals ask of a running broker: reopen the journal (SIGHUP, after log rotation)
/// and log a one-line status (SIGUSR1, SIGUSR2). Neither stops the broker or touches a peer.
extension Broker {
    /// Reopens the journal file at its configured path; a failure is logged and the old file stays in use.
    public func reopenJournal() {
        guard let path = configuration.journalPath, !isShuttingDown else { return }
        do {
            try journal.reopen(path: path)
            logger.info("journal reopened", metadata: ["lifebus.journal": "\(path)"])
        } catch {
            logger.error(
                "cannot reopen the journal; still writing the old file", metadata: ["lifebus.error": "\(error)"])
        }
    }

    /// Logs how many apps, observers and waiters the broker serves and the journal's last `seq`.
    public func logStatus() {
        logger.info("status", metadata: [
            "lifebus.apps": "\(appSessions.count)",
            "lifebus.observers": "\(observers.count)",
            "lifebus.journal.seq": "\(journal.lastSequence)",
            "lifebus.shuttingDown": "\(isShuttingDown)",
        ])
    }
}
