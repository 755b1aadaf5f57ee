/// Why the supervisor killed an app's processes; reported back with the exit so the journal can say it.
public enum KillReason: String, Sendable, Equatable, CaseIterable {
    /// Memory pressure chose it (suspended or background app at critical pressure).
    case jetsam
    /// Its resident memory went over its manifest's `memoryLimit`.
    case memoryLimit
    /// A launch or callback overran its budget.
    case watchdog
    /// The lifecycle ended it (`willTerminate` answered or timed out, exits-on-suspend).
    case terminate
    /// The broker is stopping: nothing it spawned may outlive it.
    case shutdown
}
