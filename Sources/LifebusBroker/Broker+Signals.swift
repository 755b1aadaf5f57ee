import LifebusIO
import Logging

/// What the daemon's maintenance signals ask of a running broker besides reopening the journal (SIGHUP,
/// `reopenJournal()` in `Broker+Journal.swift`): log a one-line status (SIGUSR1, SIGUSR2). Neither stops the broker
/// or touches a peer.
extension Broker {
    /// Logs how many apps, observers and waiters the broker serves and the journal's last `seq`.
    public func logStatus() {
        logger.info("status", metadata: [
            "lifebus.apps": "\(machine.appCount)",
            "lifebus.observers": "\(machine.observerCount)",
            "lifebus.journal.seq": "\(journal.lastSequence)",
            "lifebus.shuttingDown": "\(isShuttingDown)",
        ])
    }
}
