import Glibc
import LifebusIO
import Synchronization

/// A `lifebusd` child process, watched by a loop of its own on a thread of its own (libuv reaps it): started, told
/// to stop, and known to have ended.
///
/// Shared between the main actor and the watching thread through `status`. Invariant: `pid` is the child's until it
/// has ended; the thread and its loop end when the child does.
final class BrokerProcess: Sendable {
    private struct Status {
        var pid: Int32?
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let status = Mutex(Status())

    /// Starts `program` with `arguments` (its stdout on the test's stderr); throws when it cannot be started.
    static func start(_ program: String, _ arguments: [String]) async throws -> BrokerProcess {
        let process = BrokerProcess()
        let options = SpawnedProcess.Options(
            program: program, arguments: arguments, stdoutToStderr: true, diesWithParent: true
        )
        let started: Result<Void, UVError> = await withCheckedContinuation { continuation in
            DetachedThread.start {
                process.watch(options) { continuation.resume(returning: $0) }
            }
        }
        try started.get()
        return process
    }

    /// Whether the child has ended.
    var hasEnded: Bool { status.withLock { $0.ended } }

    /// Sends `signal` to the child (nothing once it has ended).
    func send(_ signal: Int32) {
        guard let pid = status.withLock({ $0.ended ? nil : $0.pid }) else { return }
        _ = ProcessSignal.send(signal, to: pid)
    }

    /// Returns once the child has ended.
    func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = status.withLock { status in
                if !status.ended { status.waiters.append(continuation) }
                return status.ended
            }
            if ended { continuation.resume() }
        }
    }

    /// Runs on the watching thread: spawns the child, reports the start, runs the loop until the child has ended.
    private func watch(_ options: SpawnedProcess.Options, started: (Result<Void, UVError>) -> Void) {
        let loop: EventLoop
        do throws(UVError) {
            loop = try EventLoop()
        } catch {
            started(.failure(error))
            return
        }
        do throws(UVError) {
            let child = try SpawnedProcess.spawn(options, loop: loop) { [self] _ in finish() }
            status.withLock { $0.pid = child.pid }
            started(.success(()))
        } catch {
            try? loop.close()
            started(.failure(error))
            return
        }
        loop.run()
        try? loop.close()
    }

    private func finish() {
        let waiters = status.withLock { status in
            status.ended = true
            defer { status.waiters = [] }
            return status.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
