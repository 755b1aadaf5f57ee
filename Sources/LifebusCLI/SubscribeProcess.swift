import Glibc
import LifebusIO
import LifebusProtocol

/// Runs one `--on` shell command for `subscribe`: `posix_spawn` of `/bin/sh -c COMMAND` with extra environment
/// variables and stdout sent to stderr, then `waitpid` on a thread of its own so the main actor is never blocked.
/// Stateless.
enum SubscribeProcess {
    /// How the command ended.
    enum Status: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        case notStarted(errno: Int32)

        var json: JSONValue {
            switch self {
            case .exited(let code): ["exit": .integer(Int64(code))]
            case .signalled(let signal): ["signal": .integer(Int64(signal))]
            case .notStarted(let error): ["spawnError": .string(String(cString: strerror(error)))]
            }
        }
    }

    static func run(_ command: String, environment extra: [String: String]) async -> Status {
        var environment = ProcessEnvironment.current
        for (key, value) in extra { environment[key] = value }
        let pid: pid_t
        switch spawn(command, environment: environment) {
        case .success(let spawned): pid = spawned
        case .failure(let error): return .notStarted(errno: error.code)
        }
        return await withCheckedContinuation { (done: CheckedContinuation<Status, Never>) in
            Waiter.start(pid: pid) { done.resume(returning: $0) }
        }
    }

    struct SpawnError: Error {
        let code: Int32
    }

    private static func spawn(_ command: String, environment: [String: String]) -> Result<pid_t, SpawnError> {
        let arguments: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) }
            + [nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { (key, value) in strdup("\(key)=\(value)") }
            + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, variables)
        return status == 0 ? .success(pid) : .failure(SpawnError(code: status))
    }

    /// Waits for one child on a detached pthread and hands its status to a closure.
    private final class Waiter {
        let pid: pid_t
        let completion: @Sendable (Status) -> Void

        private init(pid: pid_t, completion: @escaping @Sendable (Status) -> Void) {
            self.pid = pid
            self.completion = completion
        }

        static func start(pid: pid_t, completion: @escaping @Sendable (Status) -> Void) {
            // Retained for the new thread, which takes it back exactly once.
            let context = Unmanaged.passRetained(Waiter(pid: pid, completion: completion)).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(&thread, nil, { context in
                let waiter = Unmanaged<Waiter>.fromOpaque(context!).takeRetainedValue()
                waiter.completion(waiter.waitForExit())
                return nil
            }, context)
            if created == 0 {
                pthread_detach(thread)
            } else {
                let waiter = Unmanaged<Waiter>.fromOpaque(context).takeRetainedValue()
                completion(waiter.waitForExit())  // no thread to spare: wait here instead
            }
        }

        private func waitForExit() -> Status {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { return .notStarted(errno: errno) }
            }
            let low = status & 0x7f
            return low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low)
        }
    }
}
