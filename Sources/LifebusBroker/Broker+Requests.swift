import LifebusCore
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// Request routing: `hello` first, then what each role may call (`MethodPolicy`), each to its handler.
extension Broker {
    func handle(_ request: RPCRequest, from session: PeerSession, responder: RPCResponder) {
        guard !isShuttingDown else {
            responder.fail(Self.shuttingDownError)
            return
        }
        guard let role = session.role else {
            if overMessagesBeforeHello(session) { return }
            if request.method == LifebusMethod.hello {
                introduce(session, request: request, responder: responder)
            } else {
                responder.fail(RPCError(.helloRequired, "say hello before calling \(RPCError.echo(request.method))"))
            }
            return
        }
        switch MethodPolicy.allowed(request.method, for: role) {
        case nil:
            responder.fail(.methodNotFound(request.method))
            return
        case false?:
            responder.fail(RPCError(
                .notAllowedForRole, "a peer with role \(role.rawValue) may not call \(RPCError.echo(request.method))"))
            return
        case true?:
            break
        }
        let params = request.params ?? .object([:])
        do throws(RPCError) {
            switch request.method {
            case LifebusMethod.ping:
                responder.succeed(PingResult(brokerTime: Int64(EventLoop.monotonicNanoseconds())).json)
            case LifebusMethod.hello:
                responder.fail(RPCError(.alreadyIntroduced, "this connection already said hello as \(role.rawValue)"))
            case LifebusMethod.fire:
                try fire(FireParams(json: params), session: session, responder: responder)
            case LifebusMethod.reset:
                try reset(session: session, responder: responder)
            case LifebusMethod.status:
                responder.succeed(try status(StatusParams(json: params)).json)
            case LifebusMethod.wait:
                try wait(WaitParams(json: params), session: session, responder: responder)
            case LifebusMethod.history:
                responder.succeed(history(try HistoryParams(json: params)).json)
            case LifebusMethod.mark:
                try mark(MarkParams(json: params), from: session, responder: responder)
            case LifebusMethod.beginBackgroundTask:
                try beginBackgroundTask(BackgroundTaskBeginParams(json: params), from: session, responder: responder)
            case LifebusMethod.endBackgroundTask:
                try endBackgroundTask(BackgroundTaskEndParams(json: params), from: session, responder: responder)
            case LifebusMethod.reportMemory:
                try reportMemory(ReportMemoryParams(json: params), from: session, responder: responder)
            default:
                responder.fail(.methodNotFound(request.method))
            }
        } catch {
            responder.fail(error)
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
        if let refusal = refusal(ofTCPHello: params, from: session) {
            responder.fail(refusal)
            session.rpc.closeAfterFlush()
            logger.notice("closed a TCP peer without the token", metadata: session.metadata)
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
        let app = params.appID.map { AppID($0) }
        if let app, appSessions[app] != nil {
            responder.fail(RPCError(.appIDInUse, "another live connection is app \(app)"))
            return
        }
        session.stopHelloTimer()
        session.phase = .introduced(params.role)
        applyLimitsAfterHello(to: session.rpc.connection)
        responder.succeed(HelloResult(
            brokerVersion: LifebusVersion.current,
            protocolVersion: ProtocolVersion.current,
            role: params.role,
            peer: session.identity,
            profile: configuration.profile.rawValue
        ).json)
        logger.debug("peer introduced", metadata: session.metadata)
        switch params.role {
        case .app:
            if let app { connect(app, flags: params.flags, session: session) }
        case .observer:
            observers[session.number] = session
        case .controller:
            break
        }
    }
}
