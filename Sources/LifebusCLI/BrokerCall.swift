import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC

/// One command's conversation with the broker, run on a loop of its own on the calling thread.
///
/// Owns the loop, the peer and the retry timer. Connects (retrying until `retryFor` runs out, so a script can start
/// the broker and call at once), says hello in the given role, hands the peer to the body, and returns when the body
/// calls `finish` (or, with `endOnInterrupt`, when SIGINT arrives: a success). Inbound requests and notifications
/// (an observer's `transition`/`mark`) go to `onRequest`. Invariant: the loop is closed clean before `run` returns.
final class BrokerCall {
    enum Outcome {
        case success
        case conditionNotMet
        case refused(RPCError)
    }

    typealias Body = (RPCPeer, HelloResult, _ finish: @escaping (Outcome) -> Void) -> Void

    private let path: String
    private let hello: HelloParams
    private let loop: EventLoop
    private let deadline: UInt64?
    private var retryTimer: LoopTimer?
    private var interruptWatcher: SignalWatcher?
    private var peer: RPCPeer?
    private var result: Result<Outcome, BrokerSession.Failure>?

    private init(path: String, hello: HelloParams, retryFor: Duration?) throws {
        self.path = path
        self.hello = hello
        self.loop = try EventLoop()
        self.deadline = retryFor.map { EventLoop.monotonicNanoseconds() + $0.nanoseconds }
    }

    /// Runs `body` against the broker at `path`; throws the `CLIExitStatus` that ends the command on failure.
    static func run(
        path: String,
        role: PeerRole = .controller,
        retryFor: Duration? = nil,
        endOnInterrupt: Bool = false,
        onRequest: ((RPCRequest, RPCResponder) -> Void)? = nil,
        body: @escaping Body
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        let hello = HelloParams(role: role, protocolVersion: ProtocolVersion.current, clientName: "lifebus-cli")
        let call = try BrokerCall(path: path, hello: hello, retryFor: retryFor)
        if endOnInterrupt {
            call.interruptWatcher = try SignalWatcher(loop: call.loop, signal: SIGINT) { [unowned call] _ in
                call.finish(.success(.success))
            }
        }
        call.attempt(onRequest: onRequest, body)
        call.loop.run()
        try call.loop.close()
        switch call.result {
        case .success(.success): return
        case .success(.conditionNotMet): throw CLIExitStatus.conditionNotMet
        case .success(.refused(let error)) where error.lifebusCode == .lineTooLong:
            StandardError.writeLine("lifebus: an answer from the broker was too long for this client: \(error.message)")
            throw CLIExitStatus.unreachable
        case .success(.refused(let error)) where error.lifebusCode == .connectionClosed:
            StandardError.writeLine("lifebus: the broker closed the connection")
            throw CLIExitStatus.unreachable
        case .success(.refused(let error)):
            let reason = error.data?["reason"]?.stringValue.map { ": \($0)" } ?? ""
            StandardError.writeLine(
                "lifebus: the broker refused: \(error.message)\(reason)\(error.name.map { " (\($0))" } ?? "")"
            )
            throw CLIExitStatus.refused
        case .failure(.unreachable(let path, let error)):
            StandardError.writeLine("lifebus: cannot reach the broker at \(path): \(error)")
            throw CLIExitStatus.unreachable
        case .failure(.refused(let error)):
            StandardError.writeLine("lifebus: the broker refused hello: \(error.message)")
            throw CLIExitStatus.refused
        case nil:
            StandardError.writeLine("lifebus: the connection ended before the command finished")
            throw CLIExitStatus.unreachable
        }
    }

    private func attempt(onRequest: ((RPCRequest, RPCResponder) -> Void)?, _ body: @escaping Body) {
        BrokerSession.open(path: path, hello: hello, loop: loop, onRequest: onRequest) { [self] opened in
            switch opened {
            case .success(let (peer, _)) where result != nil:
                peer.close()  // interrupted while connecting
            case .success(let (peer, helloResult)):
                self.peer = peer
                peer.onEnd = { [unowned self] _ in
                    self.finish(.success(.refused(RPCError(.connectionClosed, "the broker closed the connection"))))
                }
                body(peer, helloResult) { [unowned self] outcome in self.finish(.success(outcome)) }
            case .failure(.unreachable) where deadline.map { EventLoop.monotonicNanoseconds() < $0 } ?? false:
                retry(onRequest: onRequest, body)
            case .failure(let failure):
                finish(.failure(failure))
            }
        }
    }

    private func retry(onRequest: ((RPCRequest, RPCResponder) -> Void)?, _ body: @escaping Body) {
        do throws(UVError) {
            if retryTimer == nil { retryTimer = try LoopTimer(loop: loop) }
            retryTimer?.start(after: .milliseconds(20)) { [unowned self] in self.attempt(onRequest: onRequest, body) }
        } catch {
            finish(.failure(.unreachable(path: path, error)))
        }
    }

    private func finish(_ outcome: Result<Outcome, BrokerSession.Failure>) {
        guard result == nil else { return }
        result = outcome
        retryTimer?.close()
        retryTimer = nil
        interruptWatcher?.close()
        interruptWatcher = nil
        peer?.onEnd = nil
        peer?.close()
    }
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000
    }
}

