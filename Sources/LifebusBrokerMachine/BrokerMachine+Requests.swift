import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// Request routing: `hello` first, then what each role may call (`MethodPolicy`), each to its handler.
extension BrokerMachine {
    mutating func handle(
        _ request: RPCRequest, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) {
        guard !isShuttingDown else {
            effects.append(.reply(ticket, .failure(Self.shuttingDownError)))
            return
        }
        guard let record = sessions[session] else {
            effects.append(.forget(ticket))  // a refused connection's line: it is closing unanswered
            return
        }
        guard let role = record.role else {
            if overMessagesBeforeHello(session, into: &effects) {
                effects.append(.forget(ticket))
                return
            }
            if request.method == LifebusMethod.hello {
                introduce(session, request: request, ticket: ticket, into: &effects)
            } else {
                let error = RPCError(.helloRequired, "say hello before calling \(RPCError.echo(request.method))")
                effects.append(.reply(ticket, .failure(error)))
            }
            return
        }
        // The method found once, by its bytes (`ServedMethod(named:)`): no name compared with each served one.
        guard let method = ServedMethod(named: request.method) else {
            effects.append(.reply(ticket, .failure(.methodNotFound(request.method))))
            return
        }
        guard MethodPolicy.allowed(method, for: role) else {
            let method = RPCError.echo(request.method)
            let error = RPCError(.notAllowedForRole, "a peer with role \(role.rawValue) may not call \(method)")
            effects.append(.reply(ticket, .failure(error)))
            return
        }
        var params: JSONValue { request.params ?? .object([:]) }  // made only for a method that reads params
        do throws(RPCError) {
            switch method {
            case .ping:
                effects.append(.replyPing(ticket, PingResult(brokerTime: Int64(now.nanoseconds))))
            case .hello:
                effects.append(.reply(ticket, .failure(RPCError(
                    .alreadyIntroduced, "this connection already said hello as \(role.rawValue)"))))
            case .fire:
                // Read from the line's text when it was written as peers write it.
                let fireParams = if let read = request.fireParams { read } else { try FireParams(json: params) }
                try fire(fireParams, session: session, ticket: ticket, into: &effects)
            case .reset:
                try reset(session: session, ticket: ticket, into: &effects)
            case .status:
                effects.append(.reply(ticket, .success(try status(StatusParams(json: params)).json)))
            case .wait:
                if SceneWaitParams.namesScene(params) {
                    try waitForScene(SceneWaitParams(json: params), session: session, ticket: ticket, into: &effects)
                } else {
                    try wait(WaitParams(json: params), session: session, ticket: ticket, into: &effects)
                }
            case .history:
                effects.append(.reply(ticket, .success(history(try HistoryParams(json: params)).json)))
            case .mark:
                try mark(MarkParams(json: params), from: session, ticket: ticket, into: &effects)
            case .beginBackgroundTask:
                try beginBackgroundTask(BackgroundTaskBeginParams(json: params), from: session, ticket: ticket,
                                        into: &effects)
            case .endBackgroundTask:
                try endBackgroundTask(BackgroundTaskEndParams(json: params), from: session, ticket: ticket,
                                      into: &effects)
            case .clock:
                effects.append(.reply(ticket, .success(clockResult().json)))
            case .advance:
                try advance(AdvanceParams(json: params), session: session, ticket: ticket)
            case .reportMemory:
                try reportMemory(ReportMemoryParams(json: params), from: session, ticket: ticket, into: &effects)
            case .saveRestorationState:
                try saveRestorationState(SaveRestorationStateParams(json: params), from: session, ticket: ticket,
                                         into: &effects)
            case .registerBackgroundTask:
                try registerBackgroundTask(RegisterBackgroundTaskParams(json: params), from: session, ticket: ticket,
                                           into: &effects)
            case .submitBackgroundTask:
                try submitBackgroundTask(SubmitBackgroundTaskParams(json: params), from: session, ticket: ticket,
                                         into: &effects)
            case .setTaskCompleted:
                try setTaskCompleted(SetTaskCompletedParams(json: params), from: session, ticket: ticket,
                                     into: &effects)
            case .protectedData:
                let answer = ProtectedDataParams(available: device.isProtectedDataAvailable)
                effects.append(.reply(ticket, .success(answer.json)))
            case .install, .uninstall, .apps:
                try handleAppsRequest(request.method, params, ticket: ticket, into: &effects)
            }
        } catch {
            effects.append(.reply(ticket, .failure(error)))
        }
    }

    private mutating func introduce(
        _ session: SessionID, request: RPCRequest, ticket: Ticket, into effects: inout [BrokerEffect]
    ) {
        let params: HelloParams
        do {
            params = try HelloParams(json: request.params ?? .null)
        } catch {
            effects.append(.reply(ticket, .failure(error)))
            return
        }
        guard let record = sessions[session] else { return }
        if let refusal = refusal(ofTCPHello: params, from: record) {
            effects.append(.reply(ticket, .failure(refusal)))
            effects.append(.close(session, .afterFlush))
            logger.notice("closed a TCP peer without the token", metadata: metadata(session))
            return
        }
        guard params.protocolVersion == ProtocolVersion.current else {
            let current = ProtocolVersion.current
            effects.append(.reply(ticket, .failure(RPCError(
                .unsupportedProtocolVersion,
                "protocol version \(params.protocolVersion) is not supported; this broker speaks \(current)",
                data: ["supported": [.integer(Int64(current))]]
            ))))
            return
        }
        let profile = settings.device.profile
        if params.role == .app, params.flags.adoptsScenes, profile.sceneSupport == .none {
            let id = params.appID ?? "the app"
            effects.append(.reply(ticket, .failure(RPCError(
                .scenesUnsupported,
                "\(id) adopts scenes, which profile \(profile.rawValue) does not have (scenes arrive with ios13): "
                    + "start lifebusd --profile ios13 or later",
                data: ["profile": .string(profile.rawValue)]
            ))))
            return
        }
        let app = params.appID.map { AppID($0) }
        // The flags the core gets: an installed app's manifest wins over its hello.
        let flags = app.map { installedFlags(of: $0, saidInHello: params.flags) } ?? params.flags
        if let app, let error = Self.refusal(
            ofScenesWithExitsOnSuspend: flags, app: app, installed: processes.installed[app] != nil)
        {
            effects.append(.reply(ticket, .failure(error)))
            return
        }
        if let app, sessions.session(for: app) != nil {
            effects.append(.reply(ticket, .failure(RPCError(.appIDInUse, "another live connection is app \(app)"))))
            return
        }
        clock.cancel(.hello(session))
        sessions.introduce(session, as: params.role)
        effects.append(.introduced(session))
        effects.append(.reply(ticket, .success(HelloResult(
            brokerVersion: LifebusVersion.current,
            protocolVersion: ProtocolVersion.current,
            role: params.role,
            peer: record.identity,
            profile: settings.device.profile
        ).json)))
        logger.debug("peer introduced", metadata: metadata(session))
        switch params.role {
        case .app:
            if let app { connect(app, flags: flags, session: session, into: &effects) }
        case .observer, .controller:
            break
        }
    }

    /// The refusal of an app that adopts scenes and declares `UIApplicationExitsOnSuspend` (in its `hello`, or its
    /// installed manifest): the key is available only up to iOS 13.0, where scenes begin (Apple's page for the key,
    /// `Protocol/README.md` §9), so no scene app has it; `nil` for any other app.
    private static func refusal(ofScenesWithExitsOnSuspend flags: AppFlags, app: AppID, installed: Bool) -> RPCError? {
        guard flags.adoptsScenes, flags.exitsOnSuspend else { return nil }
        let source = installed ? "its installed manifest declares" : "it declares"
        return .invalidParams(
            field: "app.exitsOnSuspend",
            "\(app) adopts scenes and \(source) exitsOnSuspend: UIApplicationExitsOnSuspend is available only up to "
                + "iOS 13.0, where scenes begin; an app cannot have both")
    }

    /// `nil` when the peer may say hello: any Unix-socket peer, or a TCP peer presenting the token.
    private func refusal(ofTCPHello params: HelloParams, from record: SessionRecord) -> RPCError? {
        guard record.overTCP, !settings.tokenMatches(params.token) else { return nil }
        let reason = params.token == nil ? "presented no token" : "presented a wrong token"
        let file = settings.tcpTokenPath
        return RPCError(.unauthorized, "a TCP peer must present the token in \(file); this one \(reason)")
    }
}
