import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

/// A controller's requests to a live broker: each on a connection of its own, on a loop of its own on a thread of
/// its own, so the main actor (where the apps' delegates answer the callbacks a `fire` causes) never blocks; a request
/// not answered within its limit of real time ends with an error (the connection closed) instead of hanging the test.
/// Stateless.
enum LiveController {
    /// The answer, or why there is none, handed from the request's thread to its awaiting task; and, on that
    /// thread, the open connection and whether the limit passed first (then the answer no longer counts).
    private final class Outcome {
        var result: Result<JSONValue, any Error> = .failure(LifebusTestBusError("the broker did not answer"))
        var peer: RPCPeer?
        var timedOut = false
    }

    /// Says hello as a controller to the broker at `path`, sends one request and returns its answer; throws when
    /// none came within `limit`.
    static func request(path: String, _ method: String, _ params: JSONValue, within limit: Duration) async throws
        -> JSONValue
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            DetachedThread.start {
                continuation.resume(with: exchange(path: path, method, params, within: limit))
            }
        }
    }

    /// Sends one request to the broker at `path` and returns once the broker has taken it in (read it, and whatever
    /// it sent first on its connection), with the task that awaits its answer: a `fire` that has not finished yet.
    /// The broker reads a connection's lines in order, so the answer to a `ping` sent right behind the request proves
    /// it was read.
    static func send(path: String, _ method: String, _ params: JSONValue, within limit: Duration) async
        -> Task<JSONValue, any Error>
    {
        let (takenIn, signal) = AsyncStream<Never>.makeStream()
        let answer = Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                DetachedThread.start {
                    let result = exchange(path: path, method, params, within: limit) { signal.finish() }
                    signal.finish()
                    continuation.resume(with: result)
                }
            }
        }
        for await _ in takenIn {}
        return answer
    }

    /// Runs one request on a loop of its own; `takenIn`, when given, is called once the broker has read it.
    private static func exchange(
        path: String, _ method: String, _ params: JSONValue, within limit: Duration,
        takenIn: (@Sendable () -> Void)? = nil
    ) -> Result<JSONValue, any Error> {
        let loop: EventLoop
        let timer: LoopTimer
        do {
            loop = try EventLoop()
        } catch {
            return .failure(error)
        }
        do {
            timer = try LoopTimer(loop: loop)
        } catch {
            try? loop.close()
            return .failure(error)
        }
        let outcome = Outcome()
        timer.start(after: limit) {
            outcome.timedOut = true
            outcome.result = .failure(LifebusTestBusError(
                "the broker did not answer \(method) within \(limit) (real time): is an app it waits for not coming "
                    + "up (an installed app whose executable says hello with another id than its manifest's)?"
            ))
            timer.close()
            outcome.peer?.close()
        }
        let hello = HelloParams(role: .controller, clientName: "lifebus-testing")
        BrokerSession.open(path: path, hello: hello, loop: loop) { opened in
            switch opened {
            case .failure(let failure):
                guard !outcome.timedOut else { return }
                outcome.result = .failure(LifebusTestBusError("cannot reach the broker: \(failure)"))
                timer.close()
            case .success(let (peer, _)):
                guard !outcome.timedOut else { return peer.close() }
                outcome.peer = peer
                _ = peer.request(method, params: params) { answer in
                    guard !outcome.timedOut else { return }
                    outcome.result = answer.mapError { $0 }
                    timer.close()
                    peer.close()
                }
                if let takenIn { _ = peer.request(LifebusMethod.ping, params: .object([:])) { _ in takenIn() } }
            }
        }
        loop.run()
        do {
            try loop.close()
        } catch {
            return .failure(error)
        }
        return outcome.result
    }
}
