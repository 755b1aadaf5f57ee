public import LifebusIO
public import LifebusProtocol

/// Opens a conversation with the broker: connects to its socket and introduces itself with `hello`.
///
/// Stateless; everything it creates belongs to the given loop. The peer it hands back has been introduced, so any
/// method allowed for its role may be called at once.
public enum BrokerSession {
    /// Why a session could not be opened.
    public enum Failure: Error, CustomStringConvertible {
        /// Nothing listens at the path (or the connect failed).
        case unreachable(path: String, UVError)
        /// The broker answered `hello` with an error.
        case refused(RPCError)

        public var description: String {
            switch self {
            case .unreachable(let path, let error): "cannot reach the broker at \(path): \(error)"
            case .refused(let error): "the broker refused hello: \(error.message)"
            }
        }
    }

    /// Connects to `path`, says `hello` with `params`, and completes on the loop's thread. When the broker sends a
    /// `lifebus.error` notification (a connection limit, the hello timeout) and closes before answering `hello`,
    /// the failure is `.refused` with that error, not a bare closed connection.
    public static func open(
        path: String,
        hello params: HelloParams,
        loop: EventLoop,
        onRequest: ((RPCRequest, RPCResponder) -> Void)? = nil,
        completion: @escaping (Result<(RPCPeer, HelloResult), Failure>) -> Void
    ) {
        Connection.connect(to: .unix(path), loop: loop) { result in
            switch result {
            case .failure(let error):
                completion(.failure(.unreachable(path: path, error)))
            case .success(let connection):
                let peer = RPCPeer(connection: connection)
                var brokerError: RPCError?
                peer.onRequest = { request, responder in
                    if request.method == LifebusMethod.error, request.id == nil, let params = request.params {
                        brokerError = try? RPCError.decode(params).get()
                    }
                    onRequest?(request, responder)
                }
                peer.start()
                peer.request(LifebusMethod.hello, params: params.json) { answer in
                    peer.onRequest = onRequest
                    switch answer {
                    case .failure(let error) where error.lifebusCode == .connectionClosed && brokerError != nil:
                        completion(.failure(.refused(brokerError ?? error)))
                    case .success(let value):
                        do throws(RPCError) {
                            completion(.success((peer, try HelloResult(json: value))))
                        } catch {
                            peer.close()
                            completion(.failure(.refused(error)))
                        }
                    case .failure(let error):
                        peer.close()
                        completion(.failure(.refused(error)))
                    }
                }
            }
        }
    }
}
