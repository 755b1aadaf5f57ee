import LifebusIO
import LifebusProtocol
import LifebusRPC

/// Request routing: what each role may call, and the answers to `hello` and `ping`.
extension Broker {
    func handle(_ request: RPCRequest, from session: PeerSession, responder: RPCResponder) {
        guard let role = session.role else {
            if request.method == LifebusMethod.hello {
                introduce(session, request: request, responder: responder)
            } else {
                responder.fail(RPCError(.helloRequired, "say hello before calling \(request.method)"))
            }
            return
        }
        switch request.method {
        case LifebusMethod.ping:
            responder.succeed(PingResult(brokerTime: Int64(EventLoop.monotonicNanoseconds())).json)
        case LifebusMethod.hello:
            responder.fail(RPCError(.alreadyIntroduced, "this connection already said hello as \(role.rawValue)"))
        default:
            responder.fail(.methodNotFound(request.method))
        }
    }

    private func introduce(_ session: PeerSession, request: RPCRequest, responder: RPCResponder) {
        let params: HelloParams
        do {
            params = try HelloParams(json: request.params ?? .null)
        } catch {
            responder.fail(error)
            return
        }
        guard params.protocolVersion == ProtocolVersion.current else {
            responder.fail(RPCError(
                .unsupportedProtocolVersion,
                "protocol version \(params.protocolVersion) is not supported; this broker speaks \(ProtocolVersion.current)",
                data: ["supported": [.integer(Int64(ProtocolVersion.current))]]
            ))
            return
        }
        session.stopHelloTimer()
        session.phase = .introduced(params.role)
        session.rpc.connection.maxLineLength = configuration.maxLineLength
        responder.succeed(HelloResult(
            brokerVersion: LifebusVersion.current,
            protocolVersion: ProtocolVersion.current,
            role: params.role,
            peer: session.identity,
            profile: "ios7"
        ).json)
        logger.debug("peer introduced", metadata: session.metadata)
    }
}
