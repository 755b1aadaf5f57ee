/// How one transition ended. The raw value is the wire spelling.
public enum TransitionOutcome: String, Sendable, Hashable, CaseIterable {
    /// Answered within budget.
    case ok
    /// Answered after its budget while the watchdog only observes (recorded, not punished).
    case late
    /// Not answered (or a background task not ended) within budget: the app was killed.
    case watchdog
    /// The process exited or its connection dropped without being told to.
    case crashed
    /// The broker ended the app's connection because the app did not read what it was sent (its output reached the
    /// output cap, or made no progress for the write-stall time); the `process` record `disconnected` before it
    /// names which (`reason`). Not the app's crash: the verdict is about its reading.
    case disconnected
    /// Ended on purpose: terminated by the user or the system (`exitsOnSuspend`, a suspended app, the grace after
    /// `willTerminate`, a callback interrupted by a kill).
    case killed
    /// Killed without notice to relieve memory pressure.
    case jetsam
}
