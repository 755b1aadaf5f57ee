public import Glibc

/// `posix_spawn` of a child that starts clean whatever its parent blocks or ignores: an empty signal mask and every
/// signal at its default disposition (a blocked SIGCHLD would hide a broker's apps' exits from it; an ignored SIGPIPE
/// would leak into the child; test runners' worker threads block signals). Stateless.
///
/// The caller keeps what differs between children: the file actions (where stdin, stdout and stderr go) and how the
/// child is waited for (`waitpid`: libuv, which reaps only its own `uv_spawn` children, never sees these). Spawns of
/// `lifebusd` (`LifebusBrokerLauncher`'s `BrokerProcess`), of the containment guard and of the integration tests'
/// children go through here.
public enum CleanSpawn {
    /// Why `posix_spawn` refused: the path it was given and the errno it returned. A plain value.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let code: Int32

        public var description: String {
            "posix_spawn \(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// Spawns `executable` (by default `arguments[0]`) with `arguments` as its argv and `environment` (`KEY=VALUE`
    /// lines) as its environment, applying `actions`; with `ownSession` the child starts a session of its own
    /// (`setsid`, out of reach of the terminal's signals). Returns the child's pid, or throws the errno
    /// `posix_spawn` gave, naming the path.
    public static func spawn(
        _ arguments: [String], executable: String? = nil, environment: [String],
        actions: inout posix_spawn_file_actions_t, ownSession: Bool = false
    ) throws(Failure) -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let session: Int32 = ownSession ? 0x80 : 0  // POSIX_SPAWN_SETSID (glibc 2.26), a GNU name Glibc omits
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | session))
        var child: pid_t = 0
        let path = executable ?? arguments[0]
        let status = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(path: path, code: status) }
        return child
    }
}
