import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// What apps do on the bus: connect (which is launching), and call mark, background tasks and memory reports.
extension BrokerMachine {
    /// Connects `app` with `flags`, as `installedFlags(of:saidInHello:)` made them.
    mutating func connect(
        _ app: AppID, flags: AppFlags, session: SessionID, into effects: inout [BrokerEffect]
    ) {
        guard let identity = sessions[session]?.identity else { return }
        sessions.connect(app, session: session)
        let pid = identity.pid > 0 ? identity.pid : nil
        if let spawned = processes.processConnected(app) {
            recordProcess(app, pid: spawned, .connected, implements: flags.implementedCallbacks, into: &effects)
        }
        tellProtectedData(to: session, into: &effects)
        let rejections = feedDevice(.appConnected(app, flags, pid: pid), into: &effects)
        if let refusal = rejections.first(where: { $0.app == app }) {
            // The core still holds the app's previous process (it has not gone after willTerminate).
            sessions.disconnect(app)
            let error = RPCError(.appIDInUse, "\(refusal)")
            effects.append(.notify(session, method: LifebusMethod.error, params: error.json))
            effects.append(.close(session, .afterFlush))
        }
        if sessions.session(for: app) == session, processes.spawnedPid(of: app) == nil, let pid = signallablePid(pid) {
            effects.append(.holdProcess(app, session: session, pid: pid))
        }
        logger.info("app connected", metadata: metadata(session).merging(["lifebus.app.id": "\(app)"]) { $1 })
    }

    mutating func mark(
        _ params: MarkParams, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        guard params.name.utf8.count <= BrokerLimits.markNameBytes else {
            throw .limitExceeded("markNameBytes", maximum: BrokerLimits.markNameBytes, "the mark's name is too long")
        }
        if let data = params.data, JSONValue.object(data).jsonText.utf8.count > BrokerLimits.markDataBytes {
            throw .limitExceeded("markDataBytes", maximum: BrokerLimits.markDataBytes, "the mark's data is too large")
        }
        guard journal.flush() else { throw journalUnavailable("the mark \(params.name) is not recorded") }
        let record = MarkRecord(
            seq: journal.lastSequence + 1,
            app: app.rawValue,
            pid: pid(of: app),
            name: params.name,
            data: params.data,
            atMs: milliseconds(lifecycleNow),
            wallMs: wallMs
        )
        appendToJournal(.mark(record), into: &effects)
        notifyObservers(LifebusMethod.mark, record.json, into: &effects)
        // The app is told its mark is journaled.
        afterJournaled(.mark(ticket, seq: record.seq, name: params.name), into: &effects)
    }

    mutating func beginBackgroundTask(
        _ params: BackgroundTaskBeginParams, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        let limit = BrokerLimits.backgroundTasksPerApp
        guard (device.snapshot(of: app)?.openBackgroundTasks.count ?? 0) < limit else {
            throw .limitExceeded("backgroundTasksPerApp", maximum: limit, "this app has too many background tasks open")
        }
        let task = nextTaskNumber
        nextTaskNumber += 1
        if let refusal = feedDevice(.backgroundTaskBegan(app, taskID: task), into: &effects).first {
            throw RPCError(.eventRejected, "\(refusal)", data: ["reason": .string(refusal.reason.rawValue)])
        }
        effects.append(.reply(ticket, .success(BackgroundTaskBeginResult(taskID: Int64(task)).json)))
    }

    mutating func endBackgroundTask(
        _ params: BackgroundTaskEndParams, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        if let refusal = feedDevice(.backgroundTaskEnded(app, taskID: UInt64(params.taskID)), into: &effects).first {
            throw RPCError.invalidParams(field: "taskID", "\(refusal)")
        }
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    mutating func reportMemory(
        _ params: ReportMemoryParams, from session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = try appOf(session)
        feedDevice(.memoryFootprint(app, bytes: UInt64(params.bytes)), into: &effects)
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    func appOf(_ session: SessionID) throws(RPCError) -> AppID {
        guard let app = sessions[session]?.app else {
            throw RPCError(.notAllowedForRole, "only a connected app may call this")
        }
        return app
    }

    /// The app's pid: the kernel's, for its last connection, as the core keeps it.
    func pid(of app: AppID) -> Int32? {
        Self.knownPid(device.pid(of: app))
    }

    /// The pid of the app's live process, as `status` and `apps` show it: the kernel's pid of its connection while
    /// it is connected, else its spawned process not yet reaped; `nil` when it has none (it is not running, or its
    /// process exited or was killed — the ended process's pid stays in the journal's process records and the next
    /// launch's `previousPid`).
    func livePid(of app: AppID) -> Int32? {
        sessions.session(for: app) != nil ? pid(of: app) : processes.spawnedPid(of: app)
    }

    /// A pid as the core holds it, as the broker reports it: none when unknown (nil or 0) or not a process's.
    static func knownPid(_ pid: Int32?) -> Int32? {
        pid.flatMap { $0 > 0 ? $0 : nil }
    }
}
