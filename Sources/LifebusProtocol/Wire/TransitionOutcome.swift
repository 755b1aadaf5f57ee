/// How one transition ended, as recorded in `TransitionRecord.outcome`. A plain value (`Sendable`).
///
/// `ok`: the app answered within its budget. `late`: it answered, after the budget (recorded, not punished).
/// `watchdog`: it did not answer in time and the broker killed it. `crashed`: its process or connection ended
/// unasked. `killed`: ended on purpose (terminate by the user, `exitsOnSuspend`, or the grace after
/// `willTerminate`). `jetsam`: killed to relieve memory pressure.
public enum TransitionOutcome: String, Sendable, CaseIterable {
    case ok
    case late
    case watchdog
    case crashed
    case killed
    case jetsam
}
