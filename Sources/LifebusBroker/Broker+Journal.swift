import Glibc
import LifebusBrokerMachine
import LifebusLifecycle
import LifebusIO
import LifebusProtocol

/// The driver's side of the journal: the run record that opens each run, reopening the file, and the end-of-turn
/// commit the machine asks for (a zero timer runs in the loop's next timer phase, after this turn's I/O).
extension Broker {
    /// Opens the run: the first journal entry of this broker process says who wrote what follows.
    func beginJournalRun() {
        let startedWallMs = clock.wallMilliseconds()
        let configuration = self.configuration
        let device = configuration.deviceConfiguration
        journal.beginRun { [unowned self] seq, reason in
            RunRecord(
                seq: seq,
                reason: reason,
                brokerVersion: LifebusVersion.current,
                protocolVersion: Int64(ProtocolVersion.current),
                profile: configuration.profile,
                timeScale: configuration.timeScale,
                clock: configuration.clock == .manual ? ClockKind.manual.rawValue : RunRecord.monotonicClock,
                pid: getpid(),
                startedWallMs: startedWallMs,
                atMs: self.clock.milliseconds(self.clock.now()),
                wallMs: self.clock.wallMilliseconds(),
                scenes: RunSceneKnobs(
                    profile: configuration.profile,
                    sceneOrderSeed: configuration.deviceConfiguration.sceneOrderSeed,
                    callPresentation: configuration.callPresentation),
                background: RunBackgroundKnobs(
                    profile: configuration.profile,
                    queuesProtectedDataNotifications: device.queuesProtectedDataNotifications,
                    taskKindsAfterForceQuit: device.taskKindsAfterForceQuit,
                    connectsSceneAtBackgroundLaunch: device.connectsSceneAtBackgroundLaunch),
                conditions: configuration.conditions == DeviceConditions() ? nil : configuration.conditions
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

    /// Arms the end-of-turn commit.
    func scheduleJournalCommit() {
        guard journalCommitTimer?.isActive != true, !isShuttingDown else { return }
        if let journalCommitTimer { return journalCommitTimer.restart(afterMilliseconds: 0) }
        do throws(UVError) {
            let timer = try LoopTimer(loop: loop)
            timer.start(after: .zero) { [unowned self] in self.feed(.commitJournal) }
            journalCommitTimer = timer
        } catch {
            feed(.commitJournal)
        }
    }
}
