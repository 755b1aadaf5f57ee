import CLibUV
import Glibc

/// A child process started with `uv_spawn`: owns its `uv_process_t` and the handler told of its exit.
///
/// Bound to its loop's thread. From `spawn` until the close callback the object is retained by its handle, so the
/// exit is reported even if the caller drops it; the handle is closed right after the exit handler ran, and a
/// failed `uv_spawn` (which has still initialised the handle) is closed before `spawn` throws. libuv reaps the
/// child (it owns SIGCHLD); nothing else may `waitpid` it. Invariant: `onExit` runs at most once, on the loop.
public final class SpawnedProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The shell's convention: the exit code, or 128 + the signal.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    /// What to start.
    public struct Options: Sendable {
        /// The program: a path, or a name looked up in `PATH` (as `execvp` does).
        public var program: String
        /// The arguments after the program name.
        public var arguments: [String]
        /// The whole environment; `nil` inherits the parent's.
        public var environment: [String: String]?
        /// The child's stdout goes to the parent's stderr (so the parent's stdout stays machine-readable).
        public var stdoutToStderr: Bool
        /// The child starts a session and process group of its own (`setsid`), so killing that group reaches
        /// everything it starts. Otherwise it stays in the parent's process group.
        public var ownProcessGroup: Bool
        /// The child gets SIGKILL when the thread that started it (the loop's) ends, even by SIGKILL of the whole
        /// parent (`PR_SET_PDEATHSIG`, kept across `exec`). `uv_spawn` runs no code in the child, so the child is
        /// started through util-linux's `setpriv --pdeathsig KILL`; where `setpriv` is missing this does nothing.
        public var diesWithParent: Bool
        /// The child's working directory; `nil` keeps the parent's.
        public var workingDirectory: String?
        /// When set, the child's stdout and stderr both go to this descriptor (e.g. a log file opened for append)
        /// and its stdin reads `/dev/null`; the caller keeps (and closes) its own copy. Wins over `stdoutToStderr`.
        public var outputDescriptor: Int32?

        public init(
            program: String, arguments: [String] = [], environment: [String: String]? = nil,
            stdoutToStderr: Bool = false, ownProcessGroup: Bool = false, diesWithParent: Bool = false,
            workingDirectory: String? = nil, outputDescriptor: Int32? = nil
        ) {
            self.program = program
            self.arguments = arguments
            self.environment = environment
            self.stdoutToStderr = stdoutToStderr
            self.ownProcessGroup = ownProcessGroup
            self.diesWithParent = diesWithParent
            self.workingDirectory = workingDirectory
            self.outputDescriptor = outputDescriptor
        }

        /// The command `uv_spawn` runs: the program, or `setpriv` starting it.
        var words: [String] {
            let command = [program] + arguments
            guard diesWithParent, access(Options.setpriv, X_OK) == 0 else { return command }
            return [Options.setpriv, "--pdeathsig", "KILL", "--"] + command
        }

        static let setpriv = "/usr/bin/setpriv"
    }

    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_process_t>
    private var onExit: ((Termination) -> Void)?
    private var closing = false
    /// The child's process id (valid until its exit was reported).
    public let pid: Int32
    /// How it ended, once it did.
    public private(set) var termination: Termination?

    private init(loop: EventLoop, handle: UnsafeMutablePointer<uv_process_t>, onExit: @escaping (Termination) -> Void) {
        self.loop = loop
        self.handle = handle
        self.onExit = onExit
        pid = handle.pointee.pid
    }

    deinit {
        assert(closing, "SpawnedProcess released before its exit was reported")
    }

    /// Starts the child; `onExit` runs on the loop when it ends. Throws the `uv_spawn` error (e.g. `ENOENT` for a
    /// program that does not exist) after closing the handle.
    public static func spawn(
        _ options: Options, loop: EventLoop, onExit: @escaping (Termination) -> Void
    ) throws(UVError) -> SpawnedProcess {
        loop.preconditionInLoop()
        let handle = uvAllocate(uv_process_t.self)
        let status = withSpawnOptions(options) { uv_spawn(loop.loop, handle, $0) }
        guard status == 0 else {
            // uv_spawn initialised the handle before failing: it must be closed before the memory is freed.
            uv_close(uvCast(handle)) { handle in uvFree(handle!) }
            throw UVError(code: status, function: "uv_spawn")
        }
        let process = SpawnedProcess(loop: loop, handle: handle, onExit: onExit)
        // Retained by the handle until the close callback, the only release.
        handle.pointee.data = Unmanaged.passRetained(process).toOpaque()
        return process
    }

    /// Sends `signal` to the child (nothing once it has exited); returns the error, e.g. `ESRCH`.
    @discardableResult
    public func send(_ signal: Int32) -> UVError? {
        loop.preconditionInLoop()
        guard termination == nil, !closing else { return nil }
        let status = uv_process_kill(handle, signal)
        return status == 0 ? nil : UVError(code: status, function: "uv_process_kill")
    }

    private static func exited(_ handle: UnsafeMutablePointer<uv_process_t>, _ status: Int64, _ signal: Int32) {
        // Unretained: the handle holds the reference until the close callback.
        let process = Unmanaged<SpawnedProcess>.fromOpaque(handle.pointee.data).takeUnretainedValue()
        let termination: Termination = signal != 0 ? .signalled(signal) : .exited(Int32(truncatingIfNeeded: status))
        process.termination = termination
        let onExit = process.onExit
        process.onExit = nil
        process.closing = true
        uv_close(uvCast(handle)) { handle in
            // The one release, balancing passRetained in spawn; the memory is freed after reading `data`.
            _ = Unmanaged<SpawnedProcess>.fromOpaque(handle!.pointee.data).takeRetainedValue()
            uvFree(handle!)
        }
        onExit?(termination)
    }

    /// Builds `uv_process_options_t` (C strings owned for the duration of `body`).
    private static func withSpawnOptions(
        _ options: Options, _ body: (UnsafePointer<uv_process_options_t>) -> Int32
    ) -> Int32 {
        let words = options.words
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let variables: [UnsafeMutablePointer<CChar>?]? = options.environment.map { environment in
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        let directory = options.workingDirectory.flatMap { strdup($0) }
        defer {
            arguments.forEach { free($0) }
            variables?.forEach { free($0) }
            free(directory)
        }
        var stdio = [uv_stdio_container_t](repeating: uv_stdio_container_t(), count: 3)
        for fd in 0..<3 {
            stdio[fd].flags = UV_INHERIT_FD
            stdio[fd].data.fd = Int32(fd)
        }
        if options.stdoutToStderr { stdio[1].data.fd = 2 }
        if let output = options.outputDescriptor {
            stdio[0].flags = UV_IGNORE  // libuv opens /dev/null for it
            stdio[1].data.fd = output
            stdio[2].data.fd = output
        }
        return arguments.withUnsafeBufferPointer { argv in
            stdio.withUnsafeMutableBufferPointer { stdioBuffer in
                func run(_ env: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
                    var raw = uv_process_options_t()
                    raw.exit_cb = { handle, status, signal in SpawnedProcess.exited(handle!, status, signal) }
                    raw.file = UnsafePointer(argv[0])
                    raw.args = UnsafeMutablePointer(mutating: argv.baseAddress)
                    raw.env = env
                    raw.cwd = directory.map { UnsafePointer($0) }
                    raw.flags = options.ownProcessGroup ? UInt32(UV_PROCESS_DETACHED.rawValue) : 0
                    raw.stdio_count = 3
                    raw.stdio = stdioBuffer.baseAddress
                    return body(&raw)
                }
                guard let variables else { return run(nil) }
                return variables.withUnsafeBufferPointer { run(UnsafeMutablePointer(mutating: $0.baseAddress)) }
            }
        }
    }
}
