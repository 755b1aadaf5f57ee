import Glibc
import LifebusIO
import LifebusLifecycle
import Synchronization

/// A private `lifebusd` for the programs that start one — `lifebus mcp --start-broker`, `lifebus run`
/// (`ScenarioRunner`), the test kit's live bus: started on a socket in a fresh temporary folder (its journal beside
/// it) with `--exit-with-parent` and this process's pid, so a caller killed without a chance to stop it (SIGKILL)
/// takes the broker with it, even before the broker watches it (the folder, with the journal, is then left for a
/// post-mortem); stopped with SIGTERM, then SIGKILL after the launch's grace, reaped, and its folder removed.
///
/// One implementation, two faces: blocking (`init(_:)`, `stop()`, for one-thread callers) and async (`start(_:)`,
/// `stop() async`, which pause between looks without blocking a thread); both take the same non-blocking steps
/// (`startLook()`, `stopLook(since:)`). Owns the child process and the folder. `Sendable`: the child's pid is behind a
/// mutex, so any thread may stop it. Invariant: after `stop()` or `kill()` the child has been reaped (or, alive a
/// minute after its SIGKILL, given up on) and the folder is gone; both are idempotent, and `deinit` stops a broker
/// still running.
public final class BrokerProcess: Sendable {
    /// Why the broker could not be started: said for people.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// The broker exited before it listened (it refused its arguments, or could not listen).
        public let exitedBeforeListening: Bool

        init(_ description: String, exitedBeforeListening: Bool = false) {
            self.description = description
            self.exitedBeforeListening = exitedBeforeListening
        }
    }

    public let socketPath: String
    public let journalPath: String
    private let folder: String
    private let launch: BrokerLaunch
    /// When the broker was spawned (`EventLoop.monotonicNanoseconds`), for the start limit.
    private let startedAt: UInt64
    private let child: Mutex<Child>

    /// The child's pid until it has been reaped, and whether it was sent SIGKILL.
    private struct Child {
        var pid: pid_t?
        var killed = false
    }

    /// Where a start stands after one look.
    private enum StartLook {
        case listening
        case starting
        case failed(Failure)
    }

    /// Makes the folder and spawns the broker; does not wait for it.
    private init(spawning launch: BrokerLaunch) throws(Failure) {
        guard let program = launch.program ?? Self.locateDaemon(path: launch.environment["PATH"]) else {
            throw Failure("cannot find lifebusd beside this executable or on PATH")
        }
        var template = Array("/tmp/\(launch.purpose).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure("cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        socketPath = "\(folder)/lifebus.sock"
        journalPath = "\(folder)/journal.jsonl"
        self.launch = launch
        startedAt = EventLoop.monotonicNanoseconds()
        let arguments =
            [program, "--socket", socketPath, "--journal", journalPath, "--exit-with-parent", String(getpid())]
            + launch.arguments
        var environment = launch.environment
        if launch.freshAppState {
            let state = "\(folder)/\(BrokerFolder.appState)"
            guard mkdir(state, 0o700) == 0 else {
                let reason = String(cString: strerror(errno))
                rmdir(folder)
                throw Failure("cannot create the apps' state folder \(state): \(reason)")
            }
            environment[AppStateFolder.environmentVariable] = state
        }
        do throws(Failure) {
            child = Mutex(Child(pid: try Self.spawn(arguments, output: launch.output, environment: environment)))
        } catch {
            BrokerFolder.remove(folder)
            throw error
        }
    }

    /// Starts the broker and returns once it accepts connections, blocking the calling thread.
    public convenience init(_ launch: BrokerLaunch) throws(Failure) {
        try self.init(spawning: launch)
        while true {
            switch startLook() {
            case .listening:
                return
            case .starting:
                usleep(10_000)
            case .failed(let failure):
                stop()
                throw failure
            }
        }
    }

    /// Starts the broker and returns once it accepts connections, pausing between looks without blocking a thread.
    public static func start(_ launch: BrokerLaunch) async throws(Failure) -> BrokerProcess {
        let broker = try BrokerProcess(spawning: launch)
        while true {
            switch broker.startLook() {
            case .listening:
                return broker
            case .starting:
                await pause(.milliseconds(10))
            case .failed(let failure):
                await broker.stop()
                throw failure
            }
        }
    }

    deinit {
        stop()
    }

    /// Whether the broker has exited (and been reaped).
    public var hasEnded: Bool { child.withLock { $0.pid == nil } }

    /// Stops the broker (if it still runs) and removes its folder, blocking the calling thread.
    public func stop() {
        let start = beginStop()
        while !stopLook(since: start) { usleep(5_000) }
        BrokerFolder.remove(folder)
    }

    /// Stops the broker (if it still runs) and removes its folder, pausing between looks without blocking a thread.
    public func stop() async {
        let start = beginStop()
        while !stopLook(since: start) { await Self.pause(.milliseconds(5)) }
        BrokerFolder.remove(folder)
    }

    /// SIGKILLs the broker, reaps it and removes its folder (for a caller that cannot wait for a clean stop).
    public func kill() {
        child.withLock { child in
            guard let pid = child.pid else { return }
            Glibc.kill(pid, SIGKILL)
            while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
            child.pid = nil
        }
        BrokerFolder.remove(folder)
    }

    /// One look at a start: the broker accepts connections, is still starting, exited, or ran out of time.
    private func startLook() -> StartLook {
        if reapIfEnded() {
            return .failed(Failure("lifebusd exited before it listened on \(socketPath)", exitedBeforeListening: true))
        }
        if SocketProbe.accepts(socketPath) { return .listening }
        guard EventLoop.monotonicNanoseconds() - startedAt < launch.startLimit.clampedNanoseconds else {
            return .failed(Failure("lifebusd did not listen on \(socketPath) within \(launch.startLimit)"))
        }
        return .starting
    }

    /// Sends SIGTERM to a broker still running; the time the stop began.
    private func beginStop() -> UInt64 {
        child.withLock { child in
            if let pid = child.pid { Glibc.kill(pid, SIGTERM) }
        }
        return EventLoop.monotonicNanoseconds()
    }

    /// One look at a stop begun at `start`: whether the broker is gone (reaped). SIGKILL once the grace has passed;
    /// a broker that a SIGKILL has not ended within a minute is given up on (left to its parent's exit).
    private func stopLook(since start: UInt64) -> Bool {
        if reapIfEnded() { return true }
        let waited = EventLoop.monotonicNanoseconds() - start
        return child.withLock { child in
            guard let pid = child.pid else { return true }
            if !child.killed && waited >= launch.stopGrace.clampedNanoseconds {
                Glibc.kill(pid, SIGKILL)
                child.killed = true
            }
            guard waited < (launch.stopGrace + .seconds(60)).clampedNanoseconds else {
                child.pid = nil
                return true
            }
            return false
        }
    }

    /// Reaps the broker if it has exited; whether it has (now or before).
    private func reapIfEnded() -> Bool {
        child.withLock { child in
            guard let pid = child.pid else { return true }
            let result = waitpid(pid, nil, WNOHANG)
            guard result == pid || (result < 0 && errno != EINTR) else { return false }
            child.pid = nil
            return true
        }
    }

    /// Waits `duration` without blocking a thread; a cancelled task still waits (blocking), so that a stop or
    /// start under cancellation paces its looks instead of spinning.
    private static func pause(_ duration: Duration) async {
        do {
            try await Task.sleep(for: duration)
        } catch {
            usleep(UInt32(duration.clampedNanoseconds / 1000))
        }
    }
}
