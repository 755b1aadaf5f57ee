/// How a broker (or `lifebus subscribe`) contains the processes it starts, whole tree, as systemd does with
/// `KillMode=control-group` (Protocol §16.2).
public enum ContainmentMode: String, Sendable, Equatable, CaseIterable {
    /// A cgroup v2 folder per run (`lifebus-PID/run-N`): `cgroup.kill` ends it, `cgroup.freeze` freezes it.
    case cgroup
    /// The process is a child subreaper (orphaned descendants come back to it) and every process started carries
    /// a token in `LIFEBUS_CONTAINMENT`: a run's processes are those with its token, its leader's group, and every
    /// descendant of those.
    case subreaper
}

/// What the owner of a `Containment` asks of it: the mode (`nil`: cgroup where the machine allows it) and the
/// program that serves as the guard (re-run with `ContainmentGuard.argument`; `nil`: no guard).
public struct ContainmentSettings: Sendable, Equatable {
    public var mode: ContainmentMode?
    public var guardProgram: String?

    public init(mode: ContainmentMode? = nil, guardProgram: String? = nil) {
        self.mode = mode
        self.guardProgram = guardProgram
    }
}
