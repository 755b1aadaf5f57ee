import Glibc
import Lifebus
import LifebusIO
import LifebusProtocol
import LifebusRPC

/// One run of `lifebus subscribe`: the app on the bus, the program it runs (if any) and how the process ends.
///
/// Owns the `Application` and decides subscribe's exit: the program's exit before `willTerminate` is the app's
/// unasked end — a `program-exited` mark, then subscribe exits with the program's status, so its connection drops
/// and the broker journals the app `crashed`; after `willTerminate` the program gets SIGTERM, then SIGKILL after
/// the exit grace (then subscribe waits, at most `reapLimit`, to reap it and say how it ended), and subscribe exits 0;
/// when the first connection times out, or the program ends before subscribe ever connected, exit 3 with the reason
/// (a program that ran with no broker never passes). Bound to the main actor.
@MainActor
final class SubscribeSession {
    /// How long the program may take to exit after `willTerminate` before it is killed (the broker's grace).
    static let exitGrace: Duration = .seconds(2)
    /// How long subscribe waits to reap a program it killed (SIGKILL ends it at once unless it is stuck in the kernel).
    static let reapLimit: Duration = .seconds(2)

    private let application: Application
    private let supervisor: SupervisorHandle
    private let diagnostics: SubscribeDiagnostics
    private let socketPath: String
    /// `willTerminate` arrived: from now on the program's exit is expected.
    var terminating = false
    /// `Application.run` returned.
    private var terminated = false
    private var programRunning = false
    /// How the program ended, once it was reaped.
    private var programTermination: SpawnedProcess.Termination?
    private var programExitWaiter: CheckedContinuation<Void, Never>?

    init(
        application: Application, supervisor: SupervisorHandle, diagnostics: SubscribeDiagnostics, socketPath: String
    ) {
        self.application = application
        self.supervisor = supervisor
        self.diagnostics = diagnostics
        self.socketPath = socketPath
    }

    /// Starts `command` (program and arguments) as the app's program, with `LIFEBUS_APP_ID`, `LIFEBUS_SOCKET` and
    /// `LIFEBUS_MARK_SOCKET` in its environment; throws the reason it could not start.
    func startProgram(_ command: [String], socketPath: String) async throws(UVError) {
        var environment = ProcessEnvironment.current
        environment["LIFEBUS_APP_ID"] = application.id
        environment["LIFEBUS_SOCKET"] = socketPath
        environment["LIFEBUS_MARK_SOCKET"] = supervisor.relayPath
        let options = SpawnedProcess.Options(
            program: command[0], arguments: Array(command.dropFirst()), environment: environment, diesWithParent: true)
        let started = await withCheckedContinuation { (done: CheckedContinuation<UVError?, Never>) in
            supervisor.with { supervisor in
                do throws(UVError) {
                    try supervisor.startProgram(options) { termination in
                        Task { @MainActor in await self.programExited(termination) }
                    }
                    done.resume(returning: nil)
                } catch {
                    done.resume(returning: error)
                }
            }
        }
        if let started { throw started }
        programRunning = true
    }

    /// Runs the app until the broker terminates it (or the first connection times out), then ends the process.
    func run(delegate: SubscribeDelegate, scenes: Bool, connectTimeout: Duration?) async -> Never {
        delegate.application = application
        await application.run(delegate: delegate, sceneDelegate: scenes ? delegate : nil)
        terminated = true
        if application.connectFailure != nil {
            Self.sayGaveUp(application.connectFailure, after: connectTimeout)
            await supervisor.shutdown()
            exit(CLIExitStatus.unreachable.rawValue)
        }
        if programRunning {
            supervisor.with { $0.signalProgram(SIGTERM) }
            if !(await waitForProgram(upTo: Self.exitGrace)) {
                supervisor.with { $0.signalProgram(SIGKILL) }
                _ = await waitForProgram(upTo: Self.reapLimit)
                let how = programTermination.map { "killed: \($0)" } ?? "killed, not reaped yet"
                StandardError.writeLine(
                    "lifebus subscribe: the program did not exit within \(DurationText.format(Self.exitGrace)) of "
                        + "SIGTERM after willTerminate; \(how)")
            }
        }
        await supervisor.shutdown()
        exit(0)
    }

    /// Says why subscribe gives up. Synchronous, so nothing it builds is still held when the process exits.
    private static func sayGaveUp(_ failure: String?, after timeout: Duration?) {
        if let failure, failure.hasPrefix(BrokerSession.Failure.untrustedPrefix) {  // refused at once, never retried
            StandardError.writeLine("lifebus subscribe: \(failure)")
            return
        }
        let limit = timeout.map { " after \(DurationText.format($0))" } ?? ""
        StandardError.writeLine("lifebus subscribe: gave up\(limit): \(failure ?? "?") (--retry keeps trying)")
    }

    /// The program ended. Before `willTerminate` this ends the app: marked, then subscribe exits with its status.
    private func programExited(_ termination: SpawnedProcess.Termination) async {
        programRunning = false
        programTermination = termination
        if let waiter = programExitWaiter {
            programExitWaiter = nil
            waiter.resume()
        }
        guard !terminated, !terminating else { return }
        let facts = diagnostics.connectionFacts
        if !facts.connected {
            let ended = "the program ended (\(termination)) before subscribe ever connected"
            if var reason = facts.failure {
                let unreachable = "cannot reach the broker at \(socketPath): "
                if reason.hasPrefix(unreachable) { reason.removeFirst(unreachable.count) }
                StandardError.writeLine("lifebus subscribe: no broker at \(socketPath): \(reason); \(ended)")
            } else {
                StandardError.writeLine("lifebus subscribe: \(ended) to the broker at \(socketPath)")
            }
            await supervisor.shutdown()
            exit(CLIExitStatus.unreachable.rawValue)
        }
        StandardError.writeLine(
            "lifebus subscribe: the program ended (\(termination)) before willTerminate; the app ends with it")
        try? await application.mark("program-exited", data: ["status": .string(termination.description)])
        await supervisor.shutdown()
        exit(termination.shellStatus)
    }

    /// Waits until the program has exited (and was reaped), at most `limit`; returns whether it did.
    private func waitForProgram(upTo limit: Duration) async -> Bool {
        guard programRunning else { return true }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: limit)
            guard let waiter = self.programExitWaiter else { return }
            self.programExitWaiter = nil
            waiter.resume()
        }
        await withCheckedContinuation { programExitWaiter = $0 }
        timer.cancel()
        return !programRunning
    }
}
