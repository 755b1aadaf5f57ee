import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// What apps do on the bus: connect (which is launching), and call mark, background tasks and memory reports.
extension Broker {
    func connect(_ app: AppID, flags: AppFlags, session: PeerSession) {
        session.appID = app
        appSessions[app] = session
        let pid = session.identity.pid > 0 ? session.identity.pid : nil
        let rejections = feed(.appConnected(app, flags, pid: pid))
        if let refusal = rejections.first(where: { $0.app == app }) {
            // The core still holds the app's previous process (it has not gone after willTerminate).
            appSessions[app] = nil
            session.appID = nil
            session.rpc.notify(LifebusMethod.error, params: RPCError(.appIDInUse, "\(refusal)").json)
            session.rpc.closeAfterFlush()
        }
        logger.info("app connected", metadata: session.metadata.merging(["lifebus.app.id": "\(app)"]) { $1 })
    }

    func mark(_ params: MarkParams, from session: PeerSession, responder: RPCResponder) throws(RPCError) {
        let app = try appOf(session)
        guard params.name.utf8.count <= BrokerLimits.markNameBytes else {
            throw .limitExceeded("markNameBytes", maximum: BrokerLimits.markNameBytes, "the mark's name is too long")
        }
        if let data = params.data, JSONValue.object(data).jsonText.utf8.count > BrokerLimits.markDataBytes {
            throw .limitExceeded("markDataBytes", maximum: BrokerLimits.markDataBytes, "the mark's data is too large")
        }
        guard journal.flush() else { throw journalUnavailable("the mark \(params.name) is not recorded") }
        let record = MarkRecord(
            seq: journal.nextSequence(),
            app: app.rawValue,
            pid: pid(of: app),
            name: params.name,
            data: params.data,
            atMs: clock.milliseconds(clock.now()),
            wallMs: clock.wallMilliseconds()
        )
        appendToJournal(.mark(record))
        notifyObservers(LifebusMethod.mark, record.json)
        afterJournaled { [unowned self] written in  // the app is told its mark is journaled
            guard written && record.seq > self.journal.droppedThrough else {
                responder.fail(self.journalUnavailable("the mark \(params.name) is not recorded"))
                return
            }
            responder.succeed(EmptyResult.json)
        }
    }

    func beginBackgroundTask(
        _ params: BackgroundTaskBeginParams, from session: PeerSession, responder: RPCResponder
    ) throws(RPCError) {
        let app = try appOf(session)
        let limit = BrokerLimits.backgroundTasksPerApp
        guard (device.snapshot(of: app)?.openBackgroundTasks.count ?? 0) < limit else {
            throw .limitExceeded("backgroundTasksPerApp", maximum: limit, "this app has too many background tasks open")
        }
        let task = nextTaskNumber
        nextTaskNumber += 1
        if let refusal = feed(.backgroundTaskBegan(app, taskID: task)).first {
            throw RPCError(.eventRejected, "\(refusal)", data: ["reason": .string(refusal.reason.rawValue)])
        }
        responder.succeed(BackgroundTaskBeginResult(taskID: Int64(task)).json)
    }

    func endBackgroundTask(
        _ params: BackgroundTaskEndParams, from session: PeerSession, responder: RPCResponder
    ) throws(RPCError) {
        let app = try appOf(session)
        if let refusal = feed(.backgroundTaskEnded(app, taskID: UInt64(params.taskID))).first {
            throw RPCError.invalidParams(field: "taskID", "\(refusal)")
        }
        responder.succeed(EmptyResult.json)
    }

    func reportMemory(_ params: ReportMemoryParams, from session: PeerSession, responder: RPCResponder) throws(RPCError) {
        let app = try appOf(session)
        feed(.memoryFootprint(app, bytes: UInt64(params.bytes)))
        responder.succeed(EmptyResult.json)
    }

    private func appOf(_ session: PeerSession) throws(RPCError) -> AppID {
        guard let app = session.appID else {
            throw RPCError(.notAllowedForRole, "only a connected app may call this")
        }
        return app
    }
}
