import Glibc
import LifebusIO

/// Finding and spawning the broker program.
extension BrokerProcess {
    /// `lifebusd` beside the running executable, else the first executable `lifebusd` on `path`.
    static func locateDaemon(path: String?) -> String? {
        SiblingExecutable.find("lifebusd", path: path)
    }

    /// Spawns `arguments` (the program first) clean (`CleanSpawn`), stdin on `/dev/null`, stdout where `output` says.
    static func spawn(
        _ arguments: [String], output: BrokerLaunch.Output, environment: [String: String]
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        switch output {
        case .discarded: posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        case .standardError: posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        }
        do throws(CleanSpawn.Failure) {
            let lines = environment.map { "\($0.key)=\($0.value)" }
            return try CleanSpawn.spawn(arguments, environment: lines, actions: &actions)
        } catch {
            throw Failure("cannot start \(arguments[0]): \(String(cString: strerror(error.code)))")
        }
    }
}
