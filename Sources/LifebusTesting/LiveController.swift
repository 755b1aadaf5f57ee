import LifebusIO
import LifebusProtocol
import LifebusRPC

/// A controller's requests to a live broker: each on a connection of its own, on a loop of its own on a thread of
/// its own, so the main actor (where the apps' delegates answer the callbacks a `fire` causes) never blocks.
/// Stateless.
enum LiveController {
    /// The answer, or why there is none, handed from the request's thread to its awaiting task.
    private final class Outcome {
        var result: Result<JSONValue, any Error> = .failure(LifebusTestBusError("the broker did not answer"))
    }

    /// Says hello as a controller to the broker at `path`, sends one request and returns its answer.
    static func request(path: String, _ method: String, _ params: JSONValue) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
            DetachedThread.start {
                continuation.resume(with: exchange(path: path, method, params))
            }
        }
    }

    private static func exchange(path: String, _ method: String, _ params: JSONValue) -> Result<JSONValue, any Error> {
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            return .failure(error)
        }
        let outcome = Outcome()
        let hello = HelloParams(role: .controller, clientName: "lifebus-testing")
        BrokerSession.open(path: path, hello: hello, loop: loop) { opened in
            switch opened {
            case .failure(let failure):
                outcome.result = .failure(LifebusTestBusError("cannot reach the broker: \(failure)"))
            case .success(let (peer, _)):
                _ = peer.request(method, params: params) { answer in
                    outcome.result = answer.mapError { $0 }
                    peer.close()
                }
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
