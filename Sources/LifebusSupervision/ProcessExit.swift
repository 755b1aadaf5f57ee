public import LifebusIO
public import LifebusLifecycle

/// How an app's process ended, reported once by `AppProcess`: the leader's exit status or signal, why the
/// supervisor killed it if it did, and how many of its group's processes were still alive and killed then.
public struct ProcessExit: Sendable, Equatable, CustomStringConvertible {
    public let appID: String
    public let pid: Int32
    public let termination: SpawnedProcess.Termination
    /// Set when the supervisor's `kill` ended it (the first reason given).
    public let killReason: KillReason?
    /// Members of the app's process group left alive when the leader exited, killed then.
    public let strayProcessesKilled: Int

    public init(
        appID: String, pid: Int32, termination: SpawnedProcess.Termination, killReason: KillReason?,
        strayProcessesKilled: Int
    ) {
        self.appID = appID
        self.pid = pid
        self.termination = termination
        self.killReason = killReason
        self.strayProcessesKilled = strayProcessesKilled
    }

    public var description: String {
        let killed = killReason.map { ", killed (\($0.rawValue))" } ?? ""
        let strays = strayProcessesKilled > 0 ? ", \(strayProcessesKilled) stray process(es) killed" : ""
        return "\(appID) pid \(pid): \(termination)\(killed)\(strays)"
    }
}
