import Glibc
public import LifebusIO
public import LifebusProtocol

/// Opens a conversation with the broker: connects to its socket and introduces itself with `hello`.
///
/// Stateless; everything it creates belongs to the given loop. The peer it hands back has been introduced, so any
/// method allowed for its role may be called at once. Every client (CLI, SDK, test kit, `lifebus mcp`) comes through
/// here, so here it is decided whom to trust (`Protocol/README.md` "Trust rules"): a socket in the default private
/// folder is used only when that folder is this user's alone (`PrivateFolder`), and nothing is sent before the
/// kernel says the listening process runs as this user or as root (`SO_PEERCRED`).
public enum BrokerSession {
    /// Why a session could not be opened.
    public enum Failure: Error, CustomStringConvertible {
        /// Nothing listens at the path (or the connect failed).
        case unreachable(path: String, UVError)
        /// The broker answered `hello` with an error.
        case refused(RPCError)
        /// Another user may have planted the socket: its folder or its listener fails the trust rules (the reason).
        /// Nothing was sent.
        case untrusted(path: String, String)

        /// How the description of `.untrusted` begins (a caller holding only the text can tell it is final).
        public static let untrustedPrefix = "refusing the socket"

        public var description: String {
            switch self {
            case .unreachable(let path, let error): "cannot reach the broker at \(path): \(error)"
            case .refused(let error): "the broker refused hello: \(error.message)"
            case .untrusted(let path, let reason): "\(Self.untrustedPrefix) \(path): \(reason)"
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
        if let reason = folderProblem(of: path) {
            loop.nextTurn { completion(.failure(.untrusted(path: path, reason))) }  // never inside `open`
            return
        }
        Connection.connect(to: .unix(path), loop: loop) { result in
            switch result {
            case .failure(let error):
                completion(.failure(.unreachable(path: path, error)))
            case .success(let connection):
                if let reason = listenerProblem(of: connection) {
                    connection.close()
                    completion(.failure(.untrusted(path: path, reason)))
                    return
                }
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

    /// Why the folder of a socket in the default private folder (`BrokerSocketPath.privateDirectory`) is not this
    /// user's alone, or `nil` (also when the socket lies elsewhere, or the folder is missing: then nothing listens).
    static func folderProblem(of path: String) -> String? {
        let uid = getuid()
        let folder = BrokerSocketPath.privateDirectory(environment: ProcessEnvironment.values(of: ["TMPDIR"]), uid: uid)
        guard path.hasPrefix(folder + "/") else { return nil }
        switch PrivateFolder.problem(folder, uid: uid) {
        case nil, .cannotInspect(ENOENT)?:
            return nil
        case let problem?:
            return "its folder \(folder) is not yours alone: \(problem); another user may have planted it (remove the "
                + "folder, or pass --socket)"
        }
    }

    /// Why the process listening on `connection` is not to be trusted, or `nil`: it runs as this user or as root.
    static func listenerProblem(of connection: Connection) -> String? {
        guard let peer = connection.peerCredentials else {
            return "the kernel did not say who listens there (SO_PEERCRED)"
        }
        let uid = getuid()
        guard peer.uid != uid, peer.uid != 0 else { return nil }
        return "it is served by \(PrivateFolder.userText(peer.uid)) (pid \(peer.pid)), not by "
            + "\(PrivateFolder.userText(uid)) or root; another user may have planted it"
    }
}
