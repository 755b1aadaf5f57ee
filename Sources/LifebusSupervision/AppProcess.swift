import Glibc
public import LifebusContainment
public import LifebusIO
public import LifebusLifecycle

/// One app's process started by the supervisor: the leader `uv_spawn` started in a session and process group of
/// its own, a pidfd opened on it at spawn, and the exit reported once.
///
/// Bound to its loop's thread. Owns the `SpawnedProcess` (which owns the libuv handle and is reaped by libuv) and
/// the leader's pidfd (closed at the exit). Invariants:
/// - no signal ever goes to a pid after its exit was reaped: every signal first goes through the leader's pidfd,
///   and only when that succeeds (so the leader is not reaped, and cannot be before this loop turn ends) does the
///   group get it by `kill(-pgid)`; once the leader is reaped the group's members get it through pidfds
///   (`GroupSignal`);
/// - at the leader's exit the group's remaining members are killed (an app's processes die with it), then
///   `onExit` runs exactly once with how it ended and, if the supervisor killed it, why;
/// - under a `Containment` the app is one contained run (`ContainedRun`): its cgroup folder, or its token and
///   descendants in subreaper mode. `kill`, `freeze` and `thaw` reach the whole run, setsid grandchildren
///   included; at the leader's exit what is left of the run is killed too, and its folder removed once empty.
public final class AppProcess {
    public let appID: String
    /// The leader's pid, which is also the process group id (valid as a number only until the exit is reported).
    public let pid: Int32
    /// Whether the group is stopped by `freeze()`.
    public private(set) var isFrozen = false
    /// How it ended, once it did.
    public private(set) var exit: ProcessExit?
    /// The run's cgroup folder in cgroup mode (`…/lifebus-PID/run-N`): every process of the app, and the place to
    /// read what the kernel accounts to it.
    public var cgroupPath: String? { run?.folder?.path }

    private let loop: EventLoop
    private var process: SpawnedProcess?
    private var leader: ProcessDescriptor?
    private var killReason: KillReason?
    private var onExit: ((ProcessExit) -> Void)?
    private let run: ContainedRun?
    private let containment: Containment?

    private init(
        appID: String, pid: Int32, leader: ProcessDescriptor?, run: ContainedRun?, containment: Containment?,
        loop: EventLoop
    ) {
        self.appID = appID
        self.pid = pid
        self.leader = leader
        self.run = run
        self.containment = containment
        self.loop = loop
    }

    /// Starts the app: checks the executable, opens the log file for append, spawns in a new process group with
    /// stdout and stderr to the log (stdin from `/dev/null`), and takes a pidfd. The child also gets `SIGKILL` if
    /// the loop's thread dies (`SpawnedProcess.Options.diesWithParent`). Throws, leaving nothing behind, when the
    /// executable is missing or not executable, the log cannot be opened, or `uv_spawn` fails. An `execve` failure
    /// past those checks (a missing `#!` interpreter) happens in `setpriv`: the app exits 127, its log says why.
    /// With `containment` the app is a new contained run of it (in cgroup mode `/bin/sh` places itself in the run's
    /// folder before it execs the program: `ContainedRun.command`).
    public static func launch(
        _ request: LaunchRequest, loop: EventLoop, containment: Containment? = nil,
        onExit: @escaping (ProcessExit) -> Void
    ) throws(LaunchFailure) -> AppProcess {
        loop.preconditionInLoop()
        func failure(_ function: String, _ path: String, _ code: Int32 = errno) -> LaunchFailure {
            LaunchFailure(appID: request.appID, cause: SystemError(function, path: path, code: code))
        }
        if let problem = SystemFiles.executableProblem(request.executable) {
            throw LaunchFailure(appID: request.appID, cause: problem)
        }
        let log = open(request.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o640)
        guard log >= 0 else { throw failure("open", request.logPath) }
        defer { close(log) }  // the child has its own copy
        // Never through a link, and never a FIFO planted in its place (the logs folder is private too); a regular
        // file, or a character device such as /dev/null (a test's or a caller's choice).
        var info = stat()
        guard fstat(log, &info) == 0, [S_IFREG, S_IFCHR].contains(info.st_mode & S_IFMT) else {
            throw failure("open", request.logPath, EINVAL)
        }
        _ = fcntl(log, F_SETFL, fcntl(log, F_GETFL) & ~O_NONBLOCK)  // the app writes to it blocking
        let run = containment?.newRun()
        let command = run?.command(request.executable, request.arguments)
            ?? (program: request.executable, arguments: request.arguments)
        let environment = request.childEnvironment()
        let options = SpawnedProcess.Options(
            program: command.program, arguments: command.arguments,
            environment: run?.environment(over: environment) ?? environment, ownProcessGroup: true,
            diesWithParent: true, workingDirectory: request.workingDirectory, outputDescriptor: log)
        var box: AppProcess?
        let spawned: SpawnedProcess
        do {
            spawned = try SpawnedProcess.spawn(options, loop: loop) { termination in box?.exited(termination) }
        } catch {
            if let folder = run?.folder { folder.remove() }
            throw failure(error.function, request.executable, -error.code)
        }
        // Not reaped before this loop turn ends (libuv reaps on this thread), so the pid is still the child's.
        let leader = try? ProcessDescriptor.open(spawned.pid)
        let app = AppProcess(
            appID: request.appID, pid: spawned.pid, leader: leader, run: run, containment: containment, loop: loop)
        app.process = spawned
        app.onExit = onExit
        box = app  // the exit handler holds the app until the exit is reported
        return app
    }

    /// Kills every process of the app (`SIGKILL` to the group, and to the whole contained run unless the caller
    /// kills every run at once, `wholeRun` false); `reason` is reported with the exit. Nothing once the exit was
    /// reported.
    public func kill(_ reason: KillReason, wholeRun: Bool = true) {
        loop.preconditionInLoop()
        guard exit == nil else { return }
        if killReason == nil { killReason = reason }
        signal(SIGKILL)
        // An unreaped leader pins its pid, so walking the tree from it is exact; once reaped, the token alone.
        let pinned = leader.map { $0.send(0) == nil } ?? false
        if wholeRun { run?.kill(leader: pinned ? pid : nil, orphans: adoptedOrphans) }
        if isFrozen { signal(SIGCONT) }  // stopped processes die of SIGKILL; resumed so that nothing stays stopped
    }

    /// Stops the whole app, so its timers really stop: `cgroup.freeze` of its run, else `SIGSTOP` to the group (and
    /// to every process of the run in subreaper mode).
    public func freeze() {
        guard exit == nil, !isFrozen else { return }
        if let run { run.freeze(true, leader: pid, orphans: adoptedOrphans()) } else { signal(SIGSTOP) }
        isFrozen = true
    }

    /// Resumes a frozen app (`cgroup.freeze` 0, else `SIGCONT`).
    public func thaw() {
        guard exit == nil, isFrozen else { return }
        if let run { run.freeze(false, leader: pid, orphans: adoptedOrphans()) } else { signal(SIGCONT) }
        isFrozen = false
    }

    /// Sends `signal` to every process of the group, never to a reaped pid (see the type's invariants).
    public func signal(_ signal: Int32) {
        loop.preconditionInLoop()
        guard exit == nil else { return }
        if let leader, leader.send(signal) == nil {  // delivered: the leader is not reaped, the group id is pinned
            _ = GroupSignal.toPinnedGroup(pid, signal)
        } else {
            // The leader is reaped (its exit report is pending in this loop turn): members through pidfds only.
            GroupSignal.toMembers(of: pid, signal)
        }
    }

    /// The children of the containment's owner that no one spawned on purpose (orphans it adopted): with the
    /// leader, the only places a process of this run can be.
    private func adoptedOrphans() -> [Int32] {
        containment?.adoptedOrphans() ?? []
    }

    private func exited(_ termination: SpawnedProcess.Termination) {
        leader = nil  // closes the pidfd
        // A cgroup holds the group too; otherwise the group first, then the rest of the run.
        let strays = run?.folder != nil ? run?.kill(leader: nil, orphans: adoptedOrphans) ?? 0
            : GroupSignal.killMembers(of: pid) + (run?.kill(leader: nil, orphans: adoptedOrphans) ?? 0)
        if let run { Self.removeWhenEmpty(run, loop: loop) }
        let report = ProcessExit(
            appID: appID, pid: pid, termination: termination, killReason: killReason, strayProcessesKilled: strays)
        exit = report
        isFrozen = false
        process = nil
        let handler = onExit
        onExit = nil
        handler?(report)
    }

    /// Removes the run's cgroup folder once its last process is gone (looking every 10 ms, at most 5 s, keeping
    /// the loop alive meanwhile; the containment's guard removes one still busy then).
    private static func removeWhenEmpty(_ run: ContainedRun, loop: EventLoop) {
        guard let folder = run.folder, !folder.remove() else { return }
        guard let timer = try? LoopTimer(loop: loop) else { return }
        var tries = 0
        timer.start(after: .milliseconds(10), repeating: .milliseconds(10)) {
            tries += 1
            if folder.remove() || tries >= 500 { timer.close() }
        }
    }
}
