import CLifebusSystem
import Glibc
import LifebusIO

/// The containment of everything one process (a broker, a `subscribe`) starts: its mode, its token, its cgroup
/// folder in cgroup mode, and the guard process that ends what is left if this process dies without cleaning up.
///
/// Bound to the owner's loop thread (the broker's supervisor loop, `subscribe`'s own loop): `start` may run before
/// the loop does, every other call runs on it. Owns the folder `lifebus-PID` (cgroup mode), the write end of the
/// guard's pipe, and the run counter. The process is made a child subreaper in both modes, so no orphan of a
/// contained process ends as a zombie under PID 1 (the owner reaps them, `OrphanReaper`). Invariants: every run
/// token starts with `token` + "."; `close()` closes the guard's pipe (the guard then kills whatever is left and
/// removes the folders).
public final class Containment {
    public let mode: ContainmentMode
    /// `PID.STARTTIME` of the owning process: unique for the boot's life.
    public let token: String
    /// Why cgroup mode was not taken, when it was not forced away.
    public let cgroupUnavailable: String?
    /// What went wrong at the start without stopping it (no subreaper, no guard, no memory controller), for the
    /// owner to log as warnings.
    public private(set) var warnings: [String] = []
    /// The guard's pid, when one was started.
    public private(set) var guardPid: Int32?
    /// The pids of the owner's children that it spawned itself (app leaders, hooks: libuv's): set by the owner;
    /// every other child is an orphan it adopted.
    public var ownedChildren: () -> Set<Int32> = { [] }
    let folder: CgroupFolder?
    private var guardWriter: Int32 = -1
    /// Whether the guard was told to look for runs by token too (cgroup mode, a run without a folder of its own).
    private var guardScansTokens = false
    private var runs = 0

    private init(mode: ContainmentMode, folder: CgroupFolder?, cgroupUnavailable: String?) {
        self.mode = mode
        self.folder = folder
        self.cgroupUnavailable = cgroupUnavailable
        token = "\(getpid()).\(ProcessTable.startTime(of: getpid()) ?? 0)"
    }

    /// Chooses the mode (cgroup unless forced or unusable), makes this process a subreaper, creates the folder
    /// (with the memory controller on for its runs where the hierarchy allows it) and starts the guard. Never
    /// fails: without a usable cgroup v2 it is subreaper mode, saying why; what failed is in `warnings`.
    public static func start(_ settings: ContainmentSettings) -> Containment {
        var warnings: [String] = []
        let subreaper = lifebus_set_child_subreaper()
        if subreaper < 0 {
            warnings.append("PR_SET_CHILD_SUBREAPER failed (\(String(cString: strerror(-subreaper)))): orphans of "
                + "apps go to PID 1 and subreaper containment cannot find them")
        }
        var unavailable: String?
        var folder: CgroupFolder?
        if settings.mode != .subreaper {
            switch ownRunsFolder() {
            case .success(let made): folder = made
            case .failure(let reason): unavailable = reason.description
            }
        }
        if let folder, let own = CgroupHierarchy.parent(of: folder.path),
           let problem = MemoryController.enable(below: own, in: folder.path) {
            warnings.append("no memory.current for runs (\(problem)): app memory is read as PSS")
        }
        let containment = Containment(
            mode: folder == nil ? .subreaper : .cgroup, folder: folder, cgroupUnavailable: unavailable)
        containment.warnings = warnings
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
        if folder != nil, runFolder == nil, !guardScansTokens, guardWriter >= 0 {
            // The guard kills by cgroup alone unless told that a run is contained by its token only.
            var scan = ContainmentGuard.scanTokens
            guardScansTokens = write(guardWriter, &scan, 1) == 1
        }
        return ContainedRun(token: "\(token).\(runs)", folder: runFolder)
    }

    /// The owner's children that it did not spawn itself and that are not its guard: the orphans of contained
    /// processes it adopted as a subreaper (one read of `/proc/self/task/*/children`).
    public func adoptedOrphans() -> [Int32] {
        let owned = ownedChildren()
        return ProcessTable.ownChildren().filter { !owned.contains($0) && $0 != guardPid }
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

    /// Kills every process of every run now (shutdown): `cgroup.kill` of the folder, then by token, over this
    /// process's whole tree.
    public func killEverything() {
        folder?.kill()
        ProcessTable.killRepeatedly(roots: { ProcessTable.ownChildren().filter { $0 != guardPid } }) {
            $0.members(tokenPrefix: token + ".")
        }
    }

    /// `lifebus-PID` made in this process's own cgroup, after checking that it can hold runs: `cgroup.kill` and
    /// `cgroup.freeze` exist (Linux 5.14 / 5.2) and a child can be moved out of this process's cgroup. A folder of
    /// that name left by a dead process of the same pid is removed first when it is empty.
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
            folder = try CgroupFolder.create(own + "/lifebus-\(getpid())", replacingStale: true)
        } catch {
            return .failure(.init("\(error)"))
        }
        for file in ["cgroup.kill", "cgroup.freeze", "cgroup.procs"] where access(folder.path + "/" + file, W_OK) != 0 {
            folder.remove()
            return .failure(.init("\(folder.path)/\(file) is missing or not writable"))
        }
        return .success(folder)
    }

    /// Starts the guard: this program (`/proc/self/exe`, even if its file was replaced since) run as `PROGRAM
    /// --lifebus-containment-guard TOKEN [FOLDER]` in a session of its own, its stdin the read end of a pipe whose
    /// write end only this process holds (both made close-on-exec at once, so no child inherits either). A failure
    /// is added to `warnings`.
    private func startGuard(_ program: String) {
        var ends: [Int32] = [-1, -1]
        let made = lifebus_pipe_cloexec(&ends)  // dup2 onto stdin clears the flag in the guard
        guard made == 0 else {
            warnings.append("no containment guard (pipe2: \(String(cString: strerror(-made))))")
            return
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // The owner's own environment, tokens included: the guard of a subscribe under a broker is one of the
        // broker's run, and ends with it (a guard never signals itself).
        let environment = ProcessEnvironment.current.map { "\($0.key)=\($0.value)" }
        let arguments = [program, ContainmentGuard.argument, token] + (folder.map { [$0.path] } ?? [])
        do {
            guardPid = try CleanSpawn.spawn(
                arguments, executable: OwnExecutable.link, environment: environment, actions: &actions,
                ownSession: true)
        } catch {
            warnings.append("no containment guard (\(error)): a SIGKILL of this process would leave its runs alive")
        }
        Glibc.close(ends[0])
        if guardPid == nil { Glibc.close(ends[1]) } else { guardWriter = ends[1] }
    }
}
