import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC
import LifebusContainment

/// The processes of one `lifebus subscribe` and its mark relay, on a libuv loop of their own thread: the program
/// run under subscribe (`-- PROGRAM ARGS…`), the `--on` hooks while they run, and a private Unix socket
/// (`LIFEBUS_MARK_SOCKET`, in a fresh 0700 directory) on which `lifebus mark` from a hook or the program asks
/// for a mark that subscribe sends as the app.
///
/// The relay socket is `PID.sock` in `$TMPDIR/lifebus-subscribe-UID` (mode 0700, ours, or subscribe refuses to
/// start); sockets left there by a subscribe that was killed (SIGKILL leaves no time to clean up) are removed when
/// the next one starts. Owns the loop, the `SpawnedProcess`es, the relay `Listener` and its socket file, and the
/// containment of the program and the hooks (Protocol §16.2, always subreaper mode here): subscribe is a child
/// subreaper, the program runs as one contained run and each hook as one of its own (the run's token in
/// `LIFEBUS_CONTAINMENT`, after a broker's own), the orphans they leave are adopted and reaped (`OrphanReaper`), and
/// a guard (`lifebus` run again) kills every run's whole tree if subscribe dies without cleaning up: `kill -9`, or
/// the broker's kill of the app, which signals subscribe's process alone (the one it holds since `hello`). A hook's
/// shell gets `PR_SET_PDEATHSIG`, what it starts does not: the guard is what ends those. Bound to the loop's thread;
/// the main actor reaches it through `SupervisorHandle`. Invariant: once `shutdown()` ran, no process of any run is
/// left running (the program's and the hooks' whole trees, and what hooks that ended left behind, got SIGKILL), the
/// relay socket is gone, and the loop ends.
final class SubscribeSupervisor {
    /// Asks the app to send one mark; the completion gets the broker's answer (on any thread).
    typealias MarkSender = @Sendable (MarkParams, @escaping @Sendable (Result<Void, RPCError>) -> Void) -> Void

    private let loop: EventLoop
    private let sendMark: MarkSender
    let relayPath: String
    private var relay: Listener?
    private var signalWatchers: [SignalWatcher] = []
    private var program: SpawnedProcess?
    private var hooks: [Int32: SpawnedProcess] = [:]
    private let containment: Containment
    private var programRun: ContainedRun?
    private var reaper: OrphanReaper?
    /// `lifebus mark` clients connected now; at most `maxRelayClients` (more are closed at once). Each sends lines
    /// of at most 64 KiB; its marks are forwarded in order, one broker request each.
    private var relayClients = 0
    static let maxRelayClients = 64

    private init(loop: EventLoop, relayPath: String, sendMark: @escaping MarkSender) {
        self.loop = loop
        self.relayPath = relayPath
        self.sendMark = sendMark
        // The guard is `lifebus` run again (its `main` starts with `ContainmentGuardEntry`): no other program hosts it.
        let guardProgram = OwnExecutable.path.flatMap { $0.hasSuffix("/lifebus") ? $0 : nil }
        containment = Containment.start(ContainmentSettings(mode: .subreaper, guardProgram: guardProgram))
        for warning in containment.warnings { StandardError.writeLine("lifebus subscribe: warning: \(warning)") }
    }

    /// Starts the supervisor's thread and loop and its relay; returns the way in (or the reason it could not).
    static func start(sendMark: @escaping MarkSender) async -> Result<SupervisorHandle, UVError> {
        await withCheckedContinuation { (started: CheckedContinuation<Result<SupervisorHandle, UVError>, Never>) in
            DetachedThread.start {
                let loop: EventLoop
                do throws(UVError) {
                    loop = try EventLoop()
                } catch {
                    started.resume(returning: .failure(error))
                    return
                }
                let directory = relayDirectory()
                do throws(UVError) {
                    try prepareRelayDirectory(directory)
                } catch {
                    started.resume(returning: .failure(error))
                    try? loop.close()
                    return
                }
                let supervisor = SubscribeSupervisor(
                    loop: loop, relayPath: "\(directory)/\(getpid()).sock", sendMark: sendMark)
                do throws(UVError) {
                    unlink(supervisor.relayPath)  // a socket of a dead process that had our pid
                    try supervisor.listen()
                } catch {
                    started.resume(returning: .failure(error))
                    loop.run()
                    try? loop.close()
                    return
                }
                let bound = LoopBound(supervisor, loop: loop)
                started.resume(returning: .success(SupervisorHandle(
                    executor: loop.executor, supervisor: bound, relayPath: supervisor.relayPath)))
                loop.run()
                try? loop.close()
            }
        }
    }

    /// Opens the relay, and ends subscribe on SIGINT, SIGTERM or SIGHUP: children killed, relay removed, exit
    /// 128 + the signal (subscribe leads its own process group, so a terminal's Ctrl-C may not reach it).
    private func listen() throws(UVError) {
        containment.ownedChildren = { [unowned self] in Set((self.program.map { [$0.pid] } ?? []) + self.hooks.keys) }
        reaper = try OrphanReaper(loop: loop, owned: containment.ownedChildren)
        relay = try Listener.listen(on: .unix(relayPath), loop: loop) { [unowned self] connection in
            self.accepted(connection)
        }
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let watcher = try SignalWatcher(loop: loop, signal: signal) { [unowned self] signal in
                self.shutdown()
                OrphanReaper.reapEveryChild(within: .seconds(2))  // the program too: no zombie is left to PID 1
                exit(128 + signal)
            }
            watcher.keepsLoopAlive = false
            signalWatchers.append(watcher)
        }
    }

    /// Starts the program; `onExit` gets its termination (on the loop's thread).
    func startProgram(_ options: SpawnedProcess.Options, onExit: @escaping (SpawnedProcess.Termination) -> Void)
        throws(UVError)
    {
        let run = containment.newRun()
        var contained = options
        contained.environment = run.environment(over: options.environment ?? ProcessEnvironment.current)
        programRun = run
        program = try SpawnedProcess.spawn(contained, loop: loop) { [unowned self] termination in
            self.program = nil
            onExit(termination)
        }
    }

    /// Runs one hook as a contained run of its own; `onExit` gets its termination, or `nil` when it could not start.
    func runHook(_ options: SpawnedProcess.Options, onExit: @escaping (SpawnedProcess.Termination?) -> Void) {
        var contained = options
        let environment = options.environment ?? ProcessEnvironment.current
        contained.environment = containment.newRun().environment(over: environment)
        do throws(UVError) {
            var pid: Int32 = 0
            let hook = try SpawnedProcess.spawn(contained, loop: loop) { [unowned self] termination in
                self.hooks[pid] = nil
                onExit(termination)
            }
            pid = hook.pid
            hooks[pid] = hook
        } catch {
            StandardError.writeLine("lifebus subscribe: cannot start the hook: \(error)")
            onExit(nil)
        }
    }

    /// Sends `signal` to the program, if it runs; returns whether it did.
    @discardableResult
    func signalProgram(_ signal: Int32) -> Bool {
        guard let program else { return false }
        return program.send(signal) == nil
    }

    /// Kills every child still running, the program's whole tree and every hook's (running or ended), closes the
    /// relay and removes its directory, and ends the guard's watch; the loop then ends.
    func shutdown() {
        program?.send(SIGKILL)
        programRun?.kill(leader: program?.pid, orphans: containment.adoptedOrphans)
        for hook in hooks.values { hook.send(SIGKILL) }
        containment.killEverything()  // the hooks' runs: what their shells started, and what ended hooks left
        containment.close()
        reaper?.reap()
        reaper?.close()
        reaper = nil
        relay?.close()  // libuv removes the socket file
        relay = nil
        signalWatchers.forEach { $0.close() }
        signalWatchers = []
        unlink(relayPath)
    }

    /// One `lifebus mark` client: JSON-RPC lines, method `mark` only, from this user only (SO_PEERCRED).
    private func accepted(_ connection: Connection) {
        guard connection.peerCredentials?.uid == getuid(), relayClients < Self.maxRelayClients else {
            connection.close()
            return
        }
        relayClients += 1
        connection.maxLineLength = 64 * 1024
        let peer = RPCPeer(connection: connection)
        peer.onEnd = { [unowned self] _ in self.relayClients -= 1 }
        let executor = loop.executor
        let sendMark = sendMark
        let loop = loop
        peer.onRequest = { request, responder in
            guard request.method == LifebusMethod.mark else {
                responder.fail(.methodNotFound(request.method))
                return
            }
            let params: MarkParams
            do throws(RPCError) {
                params = try MarkParams(json: request.params ?? .null)
            } catch {
                responder.fail(error)
                return
            }
            let pending = LoopBound(responder, loop: loop)
            sendMark(params) { result in
                executor.execute {
                    switch result {
                    case .success: pending.value.succeed([:])
                    case .failure(let error): pending.value.fail(error)
                    }
                }
            }
        }
        peer.start()
    }
}

/// The main actor's way to the `SubscribeSupervisor` on its loop.
struct SupervisorHandle: Sendable {
    let executor: LoopExecutor
    let supervisor: LoopBound<SubscribeSupervisor>
    let relayPath: String

    /// Runs `work` with the supervisor on its loop.
    func with(_ work: @escaping @Sendable (SubscribeSupervisor) -> Void) {
        let supervisor = supervisor
        executor.execute { work(supervisor.value) }
    }

    /// Kills what runs, removes the relay, and returns once that is done.
    func shutdown() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            with {
                $0.shutdown()
                done.resume()
            }
        }
    }

    /// Runs a hook and waits for it: its termination, or `nil` when it could not start.
    func runHook(_ options: SpawnedProcess.Options) async -> SpawnedProcess.Termination? {
        await withCheckedContinuation { (done: CheckedContinuation<SpawnedProcess.Termination?, Never>) in
            with { $0.runHook(options) { done.resume(returning: $0) } }
        }
    }
}

/// `$TMPDIR/lifebus-subscribe-UID` when that leaves room for the relay socket's path (`sun_path` holds 107
/// bytes), else `/tmp/lifebus-subscribe-UID`.
private func relayDirectory() -> String {
    var base = ProcessEnvironment.current["TMPDIR"] ?? "/tmp"
    if base.isEmpty || base.utf8.count > 60 { base = "/tmp" }
    return "\(base)/lifebus-subscribe-\(getuid())"
}

/// Creates the relay directory (0700) or checks that it is a directory of ours that nobody else may enter; then
/// removes the sockets of subscribes that are gone (`PID.sock` whose process no longer exists).
private func prepareRelayDirectory(_ path: String) throws(UVError) {
    if mkdir(path, 0o700) != 0 && errno != EEXIST { throw UVError(code: -errno, function: "mkdir") }
    var info = stat()
    guard lstat(path, &info) == 0 else { throw UVError(code: -errno, function: "lstat") }
    guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
        throw UVError(code: -EACCES, function: "lifebus-subscribe directory \(path) is not a private directory of ours")
    }
    for name in FolderEntries.names(in: path) ?? [] {
        guard name.hasSuffix(".sock"), let pid = Int32(name.dropLast(5)), pid > 0 else { continue }
        if kill(pid, 0) != 0 && errno == ESRCH { unlink("\(path)/\(name)") }
    }
}
