import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC

/// The processes of one `lifebus subscribe` and its mark relay, on a libuv loop of their own thread: the program
/// run under subscribe (`-- PROGRAM ARGS…`), the `--on` hooks while they run, and a private Unix socket
/// (`LIFEBUS_MARK_SOCKET`, in a fresh 0700 directory) on which `lifebus mark` from a hook or the program asks
/// for a mark that subscribe sends as the app.
///
/// Owns the loop, the `SpawnedProcess`es, the relay `Listener` and its directory. Every child stays in
/// subscribe's process group, which subscribe leads, so the broker's kill of the app reaches them all. Bound to
/// the loop's thread; the main actor reaches it through `SupervisorHandle`. Invariant: once `shutdown()` ran, no
/// child is left running (each got SIGKILL), the relay socket and its directory are gone, and the loop ends.
final class SubscribeSupervisor {
    /// Asks the app to send one mark; the completion gets the broker's answer (on any thread).
    typealias MarkSender = @Sendable (MarkParams, @escaping @Sendable (Result<Void, RPCError>) -> Void) -> Void

    private let loop: EventLoop
    private let sendMark: MarkSender
    private let relayDirectory: String
    let relayPath: String
    private var relay: Listener?
    private var signalWatchers: [SignalWatcher] = []
    private var program: SpawnedProcess?
    private var hooks: [Int32: SpawnedProcess] = [:]

    private init(loop: EventLoop, relayDirectory: String, sendMark: @escaping MarkSender) {
        self.loop = loop
        self.relayDirectory = relayDirectory
        self.relayPath = relayDirectory + "/mark.sock"
        self.sendMark = sendMark
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
                var template = Array((temporaryDirectory() + "/lifebus-subscribe-XXXXXX").utf8CString)
                guard let made = mkdtemp(&template) else {  // mkdtemp creates it with mode 0700
                    started.resume(returning: .failure(UVError(code: -errno, function: "mkdtemp")))
                    try? loop.close()
                    return
                }
                let supervisor = SubscribeSupervisor(
                    loop: loop, relayDirectory: String(cString: made), sendMark: sendMark)
                do throws(UVError) {
                    try supervisor.listen()
                } catch {
                    rmdir(supervisor.relayDirectory)
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
        relay = try Listener.listen(on: .unix(relayPath), loop: loop) { [unowned self] connection in
            self.accepted(connection)
        }
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let watcher = try SignalWatcher(loop: loop, signal: signal) { [unowned self] signal in
                self.shutdown()
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
        program = try SpawnedProcess.spawn(options, loop: loop) { [unowned self] termination in
            self.program = nil
            onExit(termination)
        }
    }

    /// Runs one hook; `onExit` gets its termination, or `nil` when it could not start.
    func runHook(_ options: SpawnedProcess.Options, onExit: @escaping (SpawnedProcess.Termination?) -> Void) {
        do throws(UVError) {
            var pid: Int32 = 0
            let hook = try SpawnedProcess.spawn(options, loop: loop) { [unowned self] termination in
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

    /// Kills every child still running, closes the relay and removes its directory; the loop then ends.
    func shutdown() {
        program?.send(SIGKILL)
        for hook in hooks.values { hook.send(SIGKILL) }
        relay?.close()  // libuv removes the socket file
        relay = nil
        signalWatchers.forEach { $0.close() }
        signalWatchers = []
        let directory = relayDirectory
        unlink(relayPath)
        rmdir(directory)
    }

    /// One `lifebus mark` client: JSON-RPC lines, method `mark` only, from this user only (SO_PEERCRED).
    private func accepted(_ connection: Connection) {
        guard connection.peerCredentials?.uid == getuid() else {
            connection.close()
            return
        }
        connection.maxLineLength = 64 * 1024
        let peer = RPCPeer(connection: connection)
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

/// `$TMPDIR` when it leaves room for the relay socket's path (`sun_path` holds 107 bytes), else `/tmp`.
private func temporaryDirectory() -> String {
    guard let directory = ProcessEnvironment.current["TMPDIR"], !directory.isEmpty, directory.utf8.count < 60 else {
        return "/tmp"
    }
    return directory
}
