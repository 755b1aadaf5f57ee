import Glibc
import LifebusIO
import Synchronization

/// A child process started with `posix_spawn`, its stdout and stderr readable as lines; its stdin the test's, or a
/// pipe held open (a server reading requests there waits instead of seeing the end of its input).
///
/// Owns the pid, the read ends of its pipes and the write end of its stdin pipe. Used by one test at a time.
/// Invariant: `wait()` reaps it once; the deinit kills and reaps a child the test forgot, so no test leaks processes.
final class ChildProcess {
    let pid: pid_t
    let stdout: LineReader
    let stderr: LineReader
    private let stdinWriter: Int32?
    private var exitStatus: Int32?

    /// The folder holding the package's built executables (beside the test bundle).
    static let productsFolder: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(length > 0, "cannot read /proc/self/exe")
        var path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while let slash = path.lastIndex(of: "/") {
            path = String(path[..<slash])
            if !path.hasSuffix(".xctest") && !path.contains(".xctest/") { break }
        }
        return path
    }()

    /// Starts `executable` (a product name, or an absolute path) with `arguments` and extra environment; with
    /// `holdingStdinOpen`, its stdin is a pipe nobody writes to, open until the child is gone.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], holdingStdinOpen: Bool = false
    ) throws {
        let path = executable.hasPrefix("/") ? executable : "\(Self.productsFolder)/\(executable)"
        var merged = ProcessEnvironment.current
        for (key, value) in environment { merged[key] = value }
        let environmentLines = merged.map { "\($0.key)=\($0.value)" }
        let (child, out, err, writer) = try Self.spawnMutex.withLock { _ throws(SpawnError) in
            try Self.spawn(
                path: path, arguments: arguments, environment: environmentLines, holdingStdinOpen: holdingStdinOpen)
        }
        pid = child
        stdinWriter = writer
        stdout = LineReader(descriptor: out)
        stderr = LineReader(descriptor: err)
    }

    /// Tests spawn children concurrently: a pipe end leaked into another child would keep that pipe open after its
    /// own process ended. So pipes are made close-on-exec, under this lock that every spawn here takes (`pipe2` is
    /// not imported into Swift's Glibc module). The row runner's forked app carriers take it too.
    static let spawnMutex = Mutex(())

    /// Spawns with stdout and stderr on fresh pipes (and stdin on one, when held open); returns the pid, the read
    /// ends and the stdin pipe's write end.
    private static func spawn(
        path: String, arguments: [String], environment: [String], holdingStdinOpen: Bool
    ) throws(SpawnError) -> (pid_t, Int32, Int32, Int32?) {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        var inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, !holdingStdinOpen || pipe(&inPipe) == 0 else {
            throw SpawnError(errno: errno)
        }
        for descriptor in outPipe + errPipe + inPipe where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        if holdingStdinOpen { posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0) }
        defer {
            close(outPipe[1])
            close(errPipe[1])
            if holdingStdinOpen { close(inPipe[0]) }
        }
        do throws(CleanSpawn.Failure) {
            let child = try CleanSpawn.spawn([path] + arguments, environment: environment, actions: &actions)
            return (child, outPipe[0], errPipe[0], holdingStdinOpen ? inPipe[1] : nil)
        } catch {
            close(outPipe[0])
            close(errPipe[0])
            if holdingStdinOpen { close(inPipe[1]) }
            throw SpawnError(errno: error.code)
        }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if let stdinWriter { close(stdinWriter) }
    }

    /// Sends `signal` to the child.
    func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// Waits for the child to end; returns its exit code, or 128+signal if a signal ended it.
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let termination = status & 0x7f
        let code = termination == 0 ? (status >> 8) & 0xff : 128 + termination
        exitStatus = code
        return code
    }

    /// Whether the process still exists (not yet reaped and not a zombie).
    var isAlive: Bool {
        exitStatus == nil && kill(pid, 0) == 0 && !isZombie
    }

    private var isZombie: Bool {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, 512, file) != nil else { return true }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(close, offsetBy: 2)] == "Z"
    }
}

struct SpawnError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "spawn failed: \(String(cString: strerror(errno)))" }
}
