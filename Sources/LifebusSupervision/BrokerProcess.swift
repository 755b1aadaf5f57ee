import Glibc
public import LifebusIO

/// A private `lifebusd` for `lifebus mcp --start-broker` and `lifebus run`: found beside the running executable or on
/// `PATH`, started on a socket in a fresh temporary folder (its journal beside it) with the caller's extra arguments
/// (e.g. `--clock manual --profile ios4`), and stopped — SIGTERM, then SIGKILL after a grace — with the folder
/// removed. Started with `--exit-with-parent`, so a caller killed without a chance to stop it (SIGKILL) takes the
/// broker with it; the folder, with the journal, is then left for a post-mortem.
///
/// Owns the child process and the folder. Used from one thread. Invariant: after `stop()` the child has been reaped
/// and the folder is gone; `stop()` is idempotent. The broker's standard output (its "listening" line) goes to
/// standard error, since standard output carries MCP (or the run's report).
public final class BrokerProcess {
    /// Why the broker could not be started: said for people.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let socketPath: String
    public let journalPath: String
    private let folder: String
    private var pid: pid_t?

    /// How long the broker may take to listen.
    static let startTimeout = Duration.seconds(10)
    /// How long a stopped broker may take to exit before it is killed.
    static let stopGrace = Duration.seconds(3)

    /// Starts `lifebusd` with `arguments` after its socket and journal, and returns once it accepts connections;
    /// the temporary folder's name starts with `purpose`; `quiet` sends the broker's output to `/dev/null`.
    public init(
        arguments extra: [String] = [], purpose: String = "lifebus-mcp", quiet: Bool = false,
        environment: [String: String] = ProcessEnvironment.current
    ) throws(Failure) {
        guard let executable = Self.findDaemon(path: environment["PATH"]) else {
            throw Failure(description: "cannot find lifebusd beside this executable or on PATH")
        }
        var template = Array("/tmp/\(purpose).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure(description: "cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        socketPath = "\(folder)/lifebus.sock"
        journalPath = "\(folder)/journal.jsonl"
        let arguments =
            [executable, "--socket", socketPath, "--journal", journalPath, "--log-level", "error", "--exit-with-parent"]
            + extra
        do throws(Failure) {
            pid = try Self.spawn(arguments, environment: environment, quiet: quiet)
            try waitUntilListening()
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Stops the broker (if it still runs) and removes its folder.
    public func stop() {
        if let child = pid {
            pid = nil
            kill(child, SIGTERM)
            if !Self.reap(child, within: Self.stopGrace) {
                kill(child, SIGKILL)
                _ = Self.reap(child, within: .seconds(60))
            }
        }
        unlink(socketPath)
        unlink(socketPath + ".lock")  // the broker keeps its lock file; it is gone, so the folder can go
        unlink(journalPath)
        let logs = "\(folder)/logs"  // the installed apps' logs (§16.4), when the broker started any
        for name in (try? SystemFiles.names(in: logs)) ?? [] {
            unlink("\(logs)/\(name)")
        }
        rmdir(logs)
        rmdir(folder)
    }

    private func waitUntilListening() throws(Failure) {
        let deadline = EventLoop.monotonicNanoseconds() + Self.startTimeout.clampedNanoseconds
        while EventLoop.monotonicNanoseconds() < deadline {
            if let child = pid, waitpid(child, nil, WNOHANG) == child {
                pid = nil
                throw Failure(description: "lifebusd exited before it listened on \(socketPath)")
            }
            if Self.accepts(socketPath) { return }
            usleep(10_000)
        }
        throw Failure(description: "lifebusd did not listen on \(socketPath) within \(Self.startTimeout)")
    }

    /// Whether something accepts connections on the Unix socket at `path`.
    private static func accepts(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return status == 0
    }

    private static func findDaemon(path: String?) -> String? {
        var candidates: [String] = []
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let own = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = own.lastIndex(of: "/") { candidates.append(own[..<slash] + "/lifebusd") }
        }
        for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
            candidates.append("\(folder)/lifebusd")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }

    private static func spawn(
        _ arguments: [String], environment: [String: String], quiet: Bool
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if quiet {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        }
        do throws(SystemError) {
            let lines = environment.map { "\($0.key)=\($0.value)" }
            return try CleanSpawn.spawn(arguments, environment: lines, actions: &actions)
        } catch {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(error.code)))")
        }
    }

    /// Waits up to `limit` for `child` to exit; whether it did (and was reaped).
    private static func reap(_ child: pid_t, within limit: Duration) -> Bool {
        let deadline = EventLoop.monotonicNanoseconds() + limit.clampedNanoseconds
        repeat {
            let result = waitpid(child, nil, WNOHANG)
            if result == child || (result < 0 && errno != EINTR) { return true }
            usleep(5_000)
        } while EventLoop.monotonicNanoseconds() < deadline
        return false
    }
}
