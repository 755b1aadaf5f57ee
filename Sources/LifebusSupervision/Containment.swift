import CLifebusSystem
import Glibc
import LifebusIO

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

/// The containment of everything one process (a broker, a `subscribe`) starts: its mode, its token, its cgroup
/// folder in cgroup mode, and the guard process that ends what is left if this process dies without cleaning up.
///
/// Owns the folder `lifebus-PID` (cgroup mode), the write end of the guard's pipe, and the run counter. The
/// process is made a child subreaper in both modes, so no orphan of a contained process ends as a zombie under
/// PID 1 (the owner reaps them, `OrphanReaper`). Invariants: every run token starts with `token` + "."; `close()`
/// closes the guard's pipe (the guard then kills whatever is left and removes the folders).
public final class Containment {
    public let mode: ContainmentMode
    /// `PID.STARTTIME` of the owning process: unique for the boot's life.
    public let token: String
    /// Why cgroup mode was not taken, when it was not forced away.
    public let cgroupUnavailable: String?
    /// The guard's pid, when one was started.
    public private(set) var guardPid: Int32?
    let folder: CgroupFolder?
    private var guardWriter: Int32 = -1
    private var runs = 0

    private init(mode: ContainmentMode, folder: CgroupFolder?, cgroupUnavailable: String?) {
        self.mode = mode
        self.folder = folder
        self.cgroupUnavailable = cgroupUnavailable
        token = "\(getpid()).\(ProcessTable.startTime(of: getpid()) ?? 0)"
    }

    /// Chooses the mode (cgroup unless forced or unusable), makes this process a subreaper, creates the folder
    /// and starts the guard. Never fails: without a usable cgroup v2 it is subreaper mode, saying why.
    public static func start(_ settings: ContainmentSettings) -> Containment {
        _ = lifebus_set_child_subreaper()
        var unavailable: String?
        var folder: CgroupFolder?
        if settings.mode != .subreaper {
            switch ownRunsFolder() {
            case .success(let made): folder = made
            case .failure(let reason): unavailable = reason.description
            }
        }
        let containment = Containment(
            mode: folder == nil ? .subreaper : .cgroup, folder: folder, cgroupUnavailable: unavailable)
        if let program = settings.guardProgram { containment.startGuard(program) }
        return containment
    }

    /// A line for the start-up log: the mode, and in cgroup mode the folder, else why not.
    public var summary: String {
        switch mode {
        case .cgroup: "cgroup (\(folder?.path ?? "?"))"
        case .subreaper: "subreaper" + (cgroupUnavailable.map { " (no cgroup: \($0))" } ?? "")
        }
    }

    /// The path of the cgroup folder, in cgroup mode.
    public var cgroupPath: String? { folder?.path }

    /// A new run: its token and, in cgroup mode, its folder (`nil` folder when it could not be made: that run is
    /// contained by its token, as in subreaper mode).
    public func newRun() -> ContainedRun {
        runs += 1
        let runFolder = folder.flatMap { try? CgroupFolder.create($0.path + "/run-\(runs)") }
        return ContainedRun(token: "\(token).\(runs)", folder: runFolder)
    }

    /// Ends the guard's watch after a clean stop (the owner has killed every run): the guard is told so, removes the
    /// folder once it has emptied and exits, and this waits (at most `guardExitLimit`) to reap it, so that nothing of
    /// the owner is left once the owner has exited. Removes the folder here if it is already empty.
    public func close() {
        if guardWriter >= 0 {
            var clean = ContainmentGuard.cleanStop
            _ = write(guardWriter, &clean, 1)
            Glibc.close(guardWriter)
        }
        guardWriter = -1
        if let folder, !folder.isPopulated { folder.remove() }
        if let guardPid { Self.reap(guardPid, within: Self.guardExitLimit) }
        guardPid = nil
    }

    /// How long a clean stop waits for its guard to exit.
    static let guardExitLimit: Duration = .seconds(2)

    /// Waits for child `pid` to exit and reaps it (or finds it reaped already, by an `OrphanReaper`), looking every
    /// millisecond, for at most `limit`.
    private static func reap(_ pid: Int32, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { return }
            usleep(1_000)
        }
    }

    /// Kills every process of every run now (shutdown): `cgroup.kill` of the folder, then by token.
    public func killEverything() {
        folder?.kill()
        ProcessTable.killRepeatedly(below: getpid()) { $0.members(tokenPrefix: token + ".") }
    }

    /// `lifebus-PID` made in this process's own cgroup, after checking that it can hold runs: `cgroup.kill` and
    /// `cgroup.freeze` exist (Linux 5.14 / 5.2) and a child can be moved out of this process's cgroup.
    private static func ownRunsFolder() -> Result<CgroupFolder, CgroupUnavailable> {
        let own: String
        switch CgroupHierarchy.ownFolder() {
        case .success(let path): own = path
        case .failure(let reason): return .failure(reason)
        }
        guard access(own + "/cgroup.procs", W_OK) == 0 else {
            return .failure(.init("\(own)/cgroup.procs is not writable (\(String(cString: strerror(errno))))"))
        }
        let folder: CgroupFolder
        do {
            folder = try CgroupFolder.create(own + "/lifebus-\(getpid())")
        } catch {
            return .failure(.init("\(error)"))
        }
        for file in ["cgroup.kill", "cgroup.freeze", "cgroup.procs"] where access(folder.path + "/" + file, W_OK) != 0 {
            folder.remove()
            return .failure(.init("\(folder.path)/\(file) is missing or not writable"))
        }
        return .success(folder)
    }

    /// Starts the guard: `PROGRAM --lifebus-containment-guard TOKEN [FOLDER]` in a session of its own, its stdin the
    /// read end of a pipe whose write end only this process holds (close-on-exec, so no child inherits it).
    private func startGuard(_ program: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)  // dup2 onto stdin clears it in the guard
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // The owner's own environment, tokens included: the guard of a subscribe under a broker is one of the
        // broker's run, and ends with it (a guard never signals itself).
        let environment = ProcessEnvironment.current.map { "\($0.key)=\($0.value)" }
        let arguments = [program, ContainmentGuard.argument, token] + (folder.map { [$0.path] } ?? [])
        guardPid = try? CleanSpawn.spawn(arguments, environment: environment, actions: &actions, ownSession: true)
        Glibc.close(ends[0])
        if guardPid == nil { Glibc.close(ends[1]) } else { guardWriter = ends[1] }
    }
}

/// One contained run (one app launch, one `subscribe` program): its token and, in cgroup mode, its folder.
///
/// A plain value naming them. The run's processes are, in cgroup mode, its folder's; else those carrying its
/// token, its leader's group and their descendants (`ProcessTable.members`), all in this process's own tree (it is
/// a child subreaper: orphans come back to it), which is the only part of `/proc` read.
public struct ContainedRun: Equatable, Sendable {
    public let token: String
    let folder: CgroupFolder?

    /// `environment` with the run's token appended to `LIFEBUS_CONTAINMENT` (a broker's token stays before it).
    public func environment(over environment: [String: String]) -> [String: String] {
        var result = environment
        let variable = ProcessTable.variable
        result[variable] = result[variable].map { $0.isEmpty ? token : $0 + "," + token } ?? token
        return result
    }

    /// The command that starts `program` inside the run's folder: in cgroup mode `/bin/sh` moves itself there
    /// (`echo 0 > cgroup.procs`) and then execs the program, so nothing the program starts runs outside it even for
    /// an instant. Otherwise the command as it is.
    func command(_ program: String, _ arguments: [String]) -> (program: String, arguments: [String]) {
        guard let folder else { return (program, arguments) }
        let script = #"echo 0 > "$0" || exit 127; exec "$@""#
        return ("/bin/sh", ["-c", script, folder.processesFile, program] + arguments)
    }

    /// Kills every process of the run (the leader `leader` included, if given); returns how many were found alive
    /// (cgroup mode: in the folder before `cgroup.kill`).
    @discardableResult
    public func kill(leader: Int32?) -> Int {
        if let folder {
            let count = folder.processCount
            folder.kill()
            folder.freeze(false)  // cgroup.kill reaches frozen processes; thawed so that nothing stays frozen
            return count
        }
        return ProcessTable.killRepeatedly(below: getpid()) { table in
            table.members(token: token, roots: leader.map { [$0] } ?? [], groups: leader.map { [$0] } ?? [])
        }
    }

    /// Freezes (`cgroup.freeze`, else SIGSTOP to every process of the run) or thaws (SIGCONT) the run.
    func freeze(_ frozen: Bool, leader: Int32) {
        if let folder, folder.freeze(frozen) { return }
        let members = ProcessTable.read(below: getpid()).members(token: token, roots: [leader], groups: [leader])
        ProcessTable.send(frozen ? SIGSTOP : SIGCONT, to: members)
    }
}
