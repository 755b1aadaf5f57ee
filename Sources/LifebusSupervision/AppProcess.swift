import Glibc
public import LifebusIO

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
///   `onExit` runs exactly once with how it ended and, if the supervisor killed it, why.
public final class AppProcess {
    public let appID: String
    /// The leader's pid, which is also the process group id (valid as a number only until the exit is reported).
    public let pid: Int32
    /// Whether the group is stopped by `freeze()`.
    public private(set) var isFrozen = false
    /// How it ended, once it did.
    public private(set) var exit: ProcessExit?

    private let loop: EventLoop
    private var process: SpawnedProcess?
    private var leader: ProcessDescriptor?
    private var killReason: KillReason?
    private var onExit: ((ProcessExit) -> Void)?

    private init(appID: String, pid: Int32, leader: ProcessDescriptor?, loop: EventLoop) {
        self.appID = appID
        self.pid = pid
        self.leader = leader
        self.loop = loop
    }

    /// Starts the app: checks the executable, opens the log file for append, spawns in a new process group with
    /// stdout and stderr to the log (stdin from `/dev/null`), and takes a pidfd. The child also gets `SIGKILL` if
    /// the loop's thread dies (`SpawnedProcess.Options.diesWithParent`). Throws, leaving nothing behind, when the
    /// executable is missing or not executable, the log cannot be opened, or `uv_spawn` fails. An `execve` failure
    /// past those checks (a missing `#!` interpreter) happens in `setpriv`: the app exits 127, its log says why.
    public static func launch(
        _ request: LaunchRequest, loop: EventLoop, onExit: @escaping (ProcessExit) -> Void
    ) throws(LaunchFailure) -> AppProcess {
        loop.preconditionInLoop()
        func failure(_ function: String, _ path: String, _ code: Int32 = errno) -> LaunchFailure {
            LaunchFailure(appID: request.appID, cause: SystemError(function, path: path, code: code))
        }
        if let problem = SystemFiles.executableProblem(request.executable) {
            throw LaunchFailure(appID: request.appID, cause: problem)
        }
        let log = open(request.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard log >= 0 else { throw failure("open", request.logPath) }
        defer { close(log) }  // the child has its own copy
        let options = SpawnedProcess.Options(
            program: request.executable, arguments: request.arguments, environment: request.childEnvironment(),
            ownProcessGroup: true, diesWithParent: true, workingDirectory: request.workingDirectory,
            outputDescriptor: log)
        var box: AppProcess?
        let spawned: SpawnedProcess
        do {
            spawned = try SpawnedProcess.spawn(options, loop: loop) { termination in box?.exited(termination) }
        } catch {
            throw failure(error.function, request.executable, -error.code)
        }
        // Not reaped before this loop turn ends (libuv reaps on this thread), so the pid is still the child's.
        let leader = try? ProcessDescriptor.open(spawned.pid)
        let app = AppProcess(appID: request.appID, pid: spawned.pid, leader: leader, loop: loop)
        app.process = spawned
        app.onExit = onExit
        box = app  // the exit handler holds the app until the exit is reported
        return app
    }

    /// Kills every process of the app (`SIGKILL` to the group); `reason` is reported with the exit. Nothing once
    /// the exit was reported.
    public func kill(_ reason: KillReason) {
        loop.preconditionInLoop()
        guard exit == nil else { return }
        if killReason == nil { killReason = reason }
        signal(SIGKILL)
    }

    /// Stops the whole group (`SIGSTOP`), so its timers really stop.
    public func freeze() {
        guard exit == nil, !isFrozen else { return }
        signal(SIGSTOP)
        isFrozen = true
    }

    /// Resumes a frozen group (`SIGCONT`).
    public func thaw() {
        guard exit == nil, isFrozen else { return }
        signal(SIGCONT)
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

    private func exited(_ termination: SpawnedProcess.Termination) {
        leader = nil  // closes the pidfd
        let strays = GroupSignal.killMembers(of: pid)
        let report = ProcessExit(
            appID: appID, pid: pid, termination: termination, killReason: killReason, strayProcessesKilled: strays)
        exit = report
        isFrozen = false
        process = nil
        let handler = onExit
        onExit = nil
        handler?(report)
    }
}
