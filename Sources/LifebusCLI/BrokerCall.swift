import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

/// One command's conversation with the broker, run on a loop of its own on the calling thread.
///
/// Owns the loop, the peer and the `BrokerConnector`. Connects (under `RetryPolicy.command`: retrying until `retryFor`
/// runs out, so a script can start the broker and call at once, and riding out a busy broker), says hello in the given
/// role, hands the peer to the body, and returns when the body calls `finish` (or, with `endOnInterrupt`, when SIGINT
/// arrives: a success). Inbound requests and notifications (an observer's `transition`/`mark`) go to `onRequest`.
/// A wait longer than `WaitNotice.patience` is never silent: still connecting, it says it waits for the broker and
/// how long; connected, it hands the peer to `onSlowAnswer` (when given) to say what the answer waits for. With a
/// `deadline`, the command ends with what `deadline.outcome` says once that much time passed without a result.
/// Invariant: the loop is closed clean before `run` returns.
final class BrokerCall {
    enum Outcome {
        case success
        case conditionNotMet
        case refused(RPCError)
    }

    /// How the call ended: the body's outcome, or no conversation at all. (Not a `Result`: instantiating
    /// `Result<_, Failure>` checks `Failure: Error` at run time, a scan of every conformance in the binary that
    /// costs a one-shot command about 170 k instructions.)
    private enum Ending {
        case success(Outcome)
        case failure(BrokerSession.Failure)
    }

    typealias Body = (RPCPeer, HelloResult, _ finish: @escaping (Outcome) -> Void) -> Void
    /// Says what a slow answer waits for, on the same connection.
    typealias SlowAnswer = (RPCPeer, _ say: @escaping WaitNotice.Say) -> Void

    private let loop: EventLoop
    private let connector: BrokerConnector
    private let policy: RetryPolicy
    private var interruptWatcher: SignalWatcher?
    private var patienceTimer: LoopTimer?
    private var deadlineTimer: LoopTimer?
    private var peer: RPCPeer?
    private var result: Ending?

    private init(
        path: String, hello: HelloParams, retryFor: Duration?, onRequest: ((RPCRequest, RPCResponder) -> Void)?
    ) throws {
        self.loop = try EventLoop()
        self.connector = BrokerConnector(path: path, hello: hello, loop: loop, onRequest: onRequest)
        self.policy = .command(retryFor: retryFor)
    }

    /// Runs `body` against the broker at `path`; throws the `CLIExitStatus` that ends the command on failure, after
    /// saying why on stderr (as `{"error":{…}}` with `json`).
    static func run(
        path: String,
        json: Bool = false,
        role: PeerRole = .controller,
        retryFor: Duration? = nil,
        endOnInterrupt: Bool = false,
        onRequest: ((RPCRequest, RPCResponder) -> Void)? = nil,
        onSlowAnswer: SlowAnswer? = nil,
        deadline: (after: Duration, outcome: () -> Outcome)? = nil,
        body: @escaping Body
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let hello = HelloParams(role: role, protocolVersion: ProtocolVersion.current, clientName: "lifebus-cli")
        let call = try BrokerCall(path: path, hello: hello, retryFor: retryFor, onRequest: onRequest)
        if endOnInterrupt {
            call.interruptWatcher = try SignalWatcher(loop: call.loop, signal: SIGINT) { [unowned call] _ in
                call.finish(.success(.success))
            }
        }
        call.armPatience(path: path, say: WaitNotice.writer(json: json), onSlowAnswer: onSlowAnswer)
        if let deadline {
            let timer = try LoopTimer(loop: call.loop)
            call.deadlineTimer = timer
            timer.start(after: deadline.after) { [unowned call] in call.finish(.success(deadline.outcome())) }
        }
        call.connect(body)
        call.loop.run()
        try call.loop.close()
        let report = CLIErrorReport(json: json)
        switch call.result {
        case .success(.success): return
        case .success(.conditionNotMet): throw CLIExitStatus.conditionNotMet
        case .success(.refused(let error)) where error.lifebusCode == .lineTooLong:
            StandardError.writeLine("lifebus: an answer from the broker was too long for this client: \(error.message)")
            throw CLIExitStatus.unreachable
        case .success(.refused(let error)) where error.lifebusCode == .connectionClosed:
            report.write(name: "lifebus.ConnectionClosed", "the broker closed the connection")
            throw CLIExitStatus.unreachable
        case .success(.refused(let error)) where error.lifebusCode == .timedOut:
            let app = error.data?["app"]?.stringValue
            let details = (error.data?.objectValue ?? [:]).filter { $0.key != "name" }.map { ($0.key, $0.value) }
            report.write(
                name: error.name ?? "lifebus.TimedOut",
                "timed out: \(error.message)\(app.map { "; \(WaitNotice.connectAdvice($0))" } ?? "")",
                extra: JSONObject(details))
            throw CLIExitStatus.conditionNotMet
        case .success(.refused(let error)):
            let reason = error.data?["reason"]?.stringValue
            report.write(
                name: error.name ?? "lifebus.Refused",
                "the broker refused: \(error.message)\(reason.map { ": \($0)" } ?? "")",
                extra: reason.map { ["reason": .string($0)] } ?? [:])
            throw CLIExitStatus.refused
        case .failure(.unreachable(let path, let error)) where error.isNotFound || error.isConnectionRefused:
            report.write(
                name: "lifebus.BrokerUnreachable", "no broker at \(path) — start it with `lifebusd` (\(error))",
                extra: ["socket": .string(path)])
            throw CLIExitStatus.unreachable
        case .failure(.unreachable(let path, let error)):
            report.write(name: "lifebus.BrokerUnreachable", "cannot reach the broker at \(path): \(error)",
                         extra: ["socket": .string(path)])
            throw CLIExitStatus.unreachable
        case .failure(.untrusted(let path, let reason)):
            report.write(name: "lifebus.UntrustedSocket", "refusing the socket \(path): \(reason)",
                         extra: ["socket": .string(path)])
            throw CLIExitStatus.unreachable
        case .failure(.refused(let error)) where error.lifebusCode == .limitExceeded:
            StandardError.writeLine("lifebus: the broker is at its connection limit (\(error.message))")
            throw CLIExitStatus.unreachable
        case .failure(.refused(let error)) where error.lifebusCode == .connectionClosed:
            StandardError.writeLine("lifebus: the broker closed the connection before answering hello")
            throw CLIExitStatus.unreachable
        case .failure(.refused(let error)):
            report.write(name: error.name ?? "lifebus.Refused", "the broker refused hello: \(error.message)")
            throw CLIExitStatus.refused
        case nil:
            report.write(name: "lifebus.ConnectionClosed", "the connection ended before the command finished")
            throw CLIExitStatus.unreachable
        }
    }

    /// After `WaitNotice.patience` without a result: says what the command waits for, once.
    private func armPatience(path: String, say write: @escaping WaitNotice.Say, onSlowAnswer: SlowAnswer?) {
        guard let timer = try? LoopTimer(loop: loop) else { return }  // no notice is better than no command
        patienceTimer = timer
        // A notice that comes after the result (its `status` answered as the connection closed) is not said.
        let say: WaitNotice.Say = { [unowned self] message in if result == nil { write(message) } }
        timer.start(after: WaitNotice.patience) { [unowned self] in
            guard result == nil else { return }
            guard let peer else {
                let limit: String
                switch (policy.deadline, policy.busyDeadline) {
                case (let absent?, let busy?) where absent != busy:
                    limit = "at most \(DurationText.format(absent)) for one to appear, "
                        + "\(DurationText.format(busy)) while one is busy"
                case (let deadline?, _), (nil, let deadline?):
                    limit = "at most \(DurationText.format(deadline))"
                case (nil, nil):
                    limit = "for as long as it takes"
                }
                return say("waiting for a broker at \(path) to accept the connection (\(limit))")
            }
            onSlowAnswer?(peer, say)
        }
    }

    private func connect(_ body: @escaping Body) {
        connector.connect(policy: policy) { [self] opened in
            switch opened {
            case .success(let (peer, helloResult)):
                self.peer = peer
                peer.onEnd = { [unowned self] _ in
                    self.finish(.success(.refused(RPCError(.connectionClosed, "the broker closed the connection"))))
                }
                body(peer, helloResult) { [unowned self] outcome in self.finish(.success(outcome)) }
            case .failure(let failure):
                finish(.failure(failure))
            }
        }
    }

    private func finish(_ outcome: Ending) {
        guard result == nil else { return }
        result = outcome
        connector.cancel()
        patienceTimer?.close()
        patienceTimer = nil
        deadlineTimer?.close()
        deadlineTimer = nil
        interruptWatcher?.close()
        interruptWatcher = nil
        peer?.onEnd = nil
        peer?.close()
    }
}
