import Glibc

/// One contained run (one app launch, one `subscribe` program): its token and, in cgroup mode, its folder.
///
/// A plain value naming them. The run's processes are, in cgroup mode, its folder's; else those carrying its
/// token, its leader's group and their descendants (`ProcessTable.members`), all in this process's own tree (it is
/// a child subreaper: orphans come back to it). Of that tree only the leader's subtree and the adopted orphans'
/// (`Containment.adoptedOrphans`) are read: never the other runs' leaders and what they started.
public struct ContainedRun: Equatable, Sendable {
    public let token: String
    package let folder: CgroupFolder?

    /// `environment` with the run's token appended to `LIFEBUS_CONTAINMENT` (a broker's token stays before it).
    public func environment(over environment: [String: String]) -> [String: String] {
        var result = environment
        let variable = ProcessTable.variable
        result[variable] = result[variable].map { $0.isEmpty ? token : $0 + "," + token } ?? token
        return result
    }

    /// The command that starts `program` inside the run's folder: in cgroup mode `/bin/sh` moves itself there
    /// (`echo 0 > cgroup.procs`) and then execs the program, so nothing the program starts runs outside it even for
    /// an instant. When the move fails the shell writes `lifebus: cannot enter the run's cgroup FOLDER` to the app's
    /// log and exits 127 without running the program. Otherwise the command as it is.
    package func command(_ program: String, _ arguments: [String]) -> (program: String, arguments: [String]) {
        guard let folder else { return (program, arguments) }
        let script = #"echo 0 > "$0" || { echo "lifebus: cannot enter the run's cgroup ${0%/*}" >&2; exit 127; }; "#
            + #"exec "$@""#
        return ("/bin/sh", ["-c", script, folder.processesFile, program] + arguments)
    }

    /// Kills every process of the run (the leader `leader` included, if given: the caller keeps it unreaped
    /// meanwhile); returns how many were found alive (cgroup mode: in the folder before `cgroup.kill`). In
    /// subreaper mode only the trees of `leader` and of `orphans()` (the owner's adopted orphans, asked again each
    /// pass) are read, and nothing at all when both are empty: nothing of the run can be left elsewhere.
    @discardableResult
    public func kill(leader: Int32?, orphans: () -> [Int32]) -> Int {
        if let folder {
            let count = folder.processCount
            folder.kill()
            folder.freeze(false)  // cgroup.kill reaches frozen processes; thawed so that nothing stays frozen
            return count
        }
        func roots() -> [Int32]? { (leader.map { [$0] } ?? []) + orphans() }
        guard roots()?.isEmpty == false else { return 0 }
        return ProcessTable.killRepeatedly(roots: roots) { table in
            table.members(token: token, roots: leader.map { [$0] } ?? [], groups: leader.map { [$0] } ?? [])
        }
    }

    /// Freezes (`cgroup.freeze`, else SIGSTOP to every process of the run: the trees of `leader` and of `orphans`)
    /// or thaws (SIGCONT) the run.
    package func freeze(_ frozen: Bool, leader: Int32, orphans: [Int32]) {
        if let folder, folder.freeze(frozen) { return }
        let members = ProcessTable.read(from: [leader] + orphans)
            .members(token: token, roots: [leader], groups: [leader])
        ProcessTable.send(frozen ? SIGSTOP : SIGCONT, to: members)
    }
}
