import LifebusLifecycle

/// How a kill reaches an app's process, and which processes the driver holds: a spawned app is killed whole through
/// the supervisor (`KillRoute.group`); an app that connected on its own by its pid, held from its `hello`
/// (`BrokerEffect.holdProcess`). No kill and no hold ever names pid 0 or the broker's own process (an app connected
/// from inside it, as the in-process fuzzer's are).
extension BrokerMachine {
    /// The way to kill `app`, whose pid the core knows as `pid` (0: unknown); `nil` when no process may be signalled.
    func killRoute(of app: AppID, pid: Int32) -> KillRoute? {
        if processes.spawnedPid(of: app) != nil { return .group }
        return signallablePid(pid).map(KillRoute.pid)
    }

    /// `pid` when it names a process other than the broker's own, else `nil`.
    func signallablePid(_ pid: Int32?) -> Int32? {
        guard let pid, pid > 0, pid != settings.brokerPid else { return nil }
        return pid
    }
}
