public import LifebusLifecycle

/// What the broker machine asks of the `Supervisor` (its effects on processes).
public enum SupervisorCommand: Sendable, Equatable {
    /// Start the app's process as its manifest says (the broker machine keeps the installed manifests).
    case spawn(AppManifest)
    /// Kill every process of the app (an app that connected on its own: that process).
    case kill(appID: String, reason: KillReason)
    /// Stop the app's process group (`SIGSTOP`), e.g. when it is suspended under `--freeze-suspended`.
    case freeze(appID: String)
    /// Resume a frozen app (`SIGCONT`), before anything resumes it.
    case thaw(appID: String)
}

/// What the `Supervisor` tells the broker machine (inputs to it).
public enum SupervisorReport: Sendable, Equatable {
    /// The app's process started.
    case spawned(appID: String, pid: Int32)
    /// The app's process could not be started; nothing was left behind.
    case launchFailed(LaunchFailure)
    /// A spawned app's process ended (once per spawn).
    case exited(ProcessExit)
    /// One round of resident-memory samples, one per running app.
    case memory([MemoryReading.Sample])
    /// A command that did not apply; nothing was done.
    case refused(SupervisorCommand, Refusal)

    /// Why a command did not apply.
    public enum Refusal: String, Sendable, Equatable {
        /// `spawn` of an app whose process runs (spawned or connected on its own).
        case alreadyRunning
        /// `kill`, `freeze` or `thaw` of an app without a process the supervisor holds.
        case notRunning
        /// `freeze`/`thaw` of an app that connected on its own: only spawned apps are frozen (their group).
        case notSpawned
    }
}
