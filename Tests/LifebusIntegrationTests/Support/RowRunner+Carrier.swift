import Glibc

/// The process behind app connections (one for a row, many for a drill's swarm): a forked child connects the sockets
/// (so the broker's `SO_PEERCRED` names the child, never the test process) and then becomes `/bin/cat` reading a pipe
/// from the test.
///
/// The test keeps the connected sockets and speaks the app's side of the protocol on them; the broker's kills hit the
/// child. Owns the child's pid and the pipe's write end: closing it lets `cat` exit 0, and if the test process dies
/// the child sees end of file and exits too, so no carrier outlives its test. Used by one runner at a time.
/// Invariant: `reap` waits for the child once; the deinit kills and reaps a child still running.
final class RowAppCarrier {
    let pid: pid_t
    /// The test's ends of the app connections (close-on-exec, so no other child inherits them).
    let sockets: [Int32]
    /// The first (for a row: the only) connection.
    var socket: Int32 { sockets[0] }
    private var stdinWrite: Int32
    private var exitStatus: Int32?

    /// Forks a child that connects `connections` sockets to `socketPath` and execs `cat`; returns once the child has
    /// connected them all.
    init(socketPath: String, connections: Int = 1) throws {
        var fds: [Int32] = []
        for _ in 0..<connections {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                let code = errno
                fds.forEach { Glibc.close($0) }
                throw SpawnError(errno: code)
            }
            fds.append(fd)
        }
        // Everything the child touches is prepared before the fork: between fork and exec it only makes syscalls.
        let address = UnsafeMutablePointer<sockaddr_un>.allocate(capacity: 1)
        address.initialize(to: sockaddr_un())
        address.pointee.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.pointee.sun_path) { raw in
            raw.copyBytes(from: socketPath.utf8)
            raw[socketPath.utf8.count] = 0
        }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/cat"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [nil]
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        defer {
            address.deallocate()
            argv.forEach { free($0) }
        }
        var stdinPipe: [Int32] = [0, 0]
        var statusPipe: [Int32] = [0, 0]
        let (child, spawnErrno): (pid_t, Int32) = fds.withUnsafeBufferPointer { fdList in
            ChildProcess.spawnMutex.withLock { _ in
                guard pipe(&stdinPipe) == 0, pipe(&statusPipe) == 0 else { return (-1, errno) }
                for descriptor in stdinPipe + statusPipe {
                    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                }
                let child = fork()
                if child == 0 {
                    var failure: Int32 = 0
                    let target = UnsafePointer<sockaddr>(OpaquePointer(address))
                    for fd in fdList where failure == 0 {
                        if connect(fd, target, socklen_t(MemoryLayout<sockaddr_un>.size)) != 0 { failure = errno }
                    }
                    if failure == 0 {
                        dup2(stdinPipe[0], 0)
                        sigprocmask(SIG_SETMASK, &noSignals, nil)
                        execve("/bin/cat", argv, envp)
                        failure = errno
                    }
                    _ = write(statusPipe[1], &failure, MemoryLayout<Int32>.size)
                    _exit(127)
                }
                return (child, child < 0 ? errno : 0)
            }
        }
        guard child > 0 else {
            fds.forEach { Glibc.close($0) }
            throw SpawnError(errno: spawnErrno)
        }
        Glibc.close(stdinPipe[0])
        Glibc.close(statusPipe[1])
        // The status pipe closes at exec (close-on-exec): nothing read means the child connected and became cat.
        var failure: Int32 = 0
        var count: Int
        repeat {
            count = read(statusPipe[0], &failure, MemoryLayout<Int32>.size)
        } while count < 0 && errno == EINTR
        Glibc.close(statusPipe[0])
        pid = child
        sockets = fds
        stdinWrite = stdinPipe[1]
        if count > 0 {
            fds.forEach { Glibc.close($0) }
            finishInput()
            _ = reap()
            throw SpawnError(errno: failure)
        }
    }

    deinit {
        finishInput()
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = reap()
        }
    }

    /// Closes the child's input: `cat` exits 0, as an app's process exits after answering `willTerminate`.
    func finishInput() {
        guard stdinWrite >= 0 else { return }
        Glibc.close(stdinWrite)
        stdinWrite = -1
    }

    /// Kills the child at once (a crash).
    func crash() {
        kill(pid, SIGKILL)
    }

    /// Waits up to `timeout` for the child to end; its exit code, or 128+signal, or nil if it still runs.
    func reap(timeout: Duration = .seconds(10)) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Deadline(after: timeout)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let termination = status & 0x7f
                exitStatus = termination == 0 ? (status >> 8) & 0xff : 128 + termination
                return exitStatus
            }
            if result < 0 && errno != EINTR { return nil }
            if deadline.hasPassed { return nil }
            usleep(2_000)  // polling a child's end: waitpid has no timeout
        }
    }
}
