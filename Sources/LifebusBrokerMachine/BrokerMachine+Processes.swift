import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// The processes of installed apps: the core's `startProcess` becomes a spawn, the driver's reports (spawned,
/// launch failed, exited) become process records and core inputs, and a launch failure answers its `fire` with
/// `lifebus.LaunchFailed`.
extension BrokerMachine {
    /// The core asks for the app's process: spawn it when it is installed (after the previous one is reaped),
    /// else wait for it to connect on its own.
    mutating func startProcess(_ app: AppID, into effects: inout [BrokerEffect]) {
        guard let installed = processes.installed[app] else {
            logger.info("waiting for the app to connect (it is not installed)", metadata: ["lifebus.app.id": "\(app)"])
            return
        }
        guard processes.launch(app) else { return }
        effects.append(.spawn(installed))
    }

    mutating func processSpawned(_ app: AppID, pid: Int32, into effects: inout [BrokerEffect]) {
        processes.processSpawned(app, pid: pid)
        recordProcess(app, pid: pid, .started, into: &effects)
        logger.info("app started", metadata: ["lifebus.app.id": "\(app)", "lifebus.app.pid": "\(pid)"])
    }

    mutating func launchFailed(
        _ app: AppID, path: String, errno: Int32, detail: String, into effects: inout [BrokerEffect]
    ) {
        processes.spawnFailed(app, ProcessBook.Failure(path: path, errno: errno, detail: detail))
        recordProcess(app, pid: nil, .launchFailed, detail: detail, into: &effects)
        logger.warning("cannot launch the app", metadata: ["lifebus.app.id": "\(app)", "lifebus.error": "\(detail)"])
        feedDevice(.launchFailed(app), into: &effects)
    }

    mutating func processExited(
        _ app: AppID, pid: Int32, _ status: ExitStatus, killedFor: KillReason?, into effects: inout [BrokerEffect]
    ) {
        let reaped = processes.processReaped(app, pid: pid)
        let (code, signal): (Int32?, Int32?) = switch status {
        case .exited(let code): (code, nil)
        case .signaled(let signal): (nil, signal)
        }
        recordProcess(app, pid: pid, .exited, status: code, signal: signal, reason: killedFor.map { .kill($0) },
                      into: &effects)
        if processes.installed[app] != nil, processes.endings[app]?.pid != pid {
            let told = journal.lastTransitions(of: app.rawValue, count: 1).first?.callback == .willTerminate
            let ending = code.map { "exited with status \($0)" } ?? "killed by signal \(signal ?? 0)"
            processes.endings[app] = ProcessBook.Ending(pid: pid, reason: told ? .afterTerminate : .afterCrash,
                                                        text: ending)
        }
        feedDevice(.processExited(app, status), into: &effects)
        if let reaped, !reaped.hasConnected, !reaped.relaunchesAtExit, sessions.session(for: app) == nil,
           let executable = processes.installed[app]?.executable {
            // It ended before it connected: the launch waiting for it fails now, not at its budget. (A process that
            // had connected, or one a new launch waits to see reaped, ends no launch: the next one is spawned.)
            let ending = code.map { "exited with status \($0)" } ?? "was killed by signal \(signal ?? 0)"
            let detail = "cannot launch \(app): \(executable) (pid \(pid)) \(ending) before it connected"
            processes.failures[app] = ProcessBook.Failure(path: executable, errno: 0, detail: detail)
            feedDevice(.launchFailed(app), into: &effects)
        }
        if reaped?.relaunchesAtExit == true, let installed = processes.installed[app], processes.launch(app) {
            effects.append(.spawn(installed))
        }
    }

    /// At stop: each spawned app still running is terminated as by the system (`willTerminate`, an event labelled
    /// `shutdown`); its connection stays open for the answer until the driver's shutdown grace closes it, and the
    /// driver kills what is left once the connections are gone. Returns the sessions kept open.
    mutating func terminateSpawnedApps(into effects: inout [BrokerEffect]) -> Set<SessionID> {
        var kept: Set<SessionID> = []
        for app in processes.spawnedApps {
            guard let session = sessions.session(for: app), device.state(of: app).isRunning else { continue }
            kept.insert(session)
            let id = deliveries.events.begin(label: EventCause.shutdownLabel, session: session, ticket: nil)
            feedDevice(.fire(id, .terminate(app, byUser: false)), into: &effects)
        }
        return kept
    }

    /// The core killed the app: the kill is recorded, and remembered for the next launch's options.
    /// A spawned app that did not connect within its launch budget overran it as a late callback overruns its
    /// own: its process is killed (`watchdog`, journaled), then reaped and journaled `exited` as any other.
    mutating func launchTimedOut(_ app: AppID, into effects: inout [BrokerEffect]) {
        guard let pid = processes.spawnedPid(of: app), sessions.session(for: app) == nil else { return }
        effects.append(.kill(app, via: .group, reason: .watchdog))
        processKilled(app, pid: pid, reason: .watchdog, into: &effects)
        logger.warning("killed: it did not connect within its launch budget",
                       metadata: ["lifebus.app.id": "\(app)", "lifebus.app.pid": "\(pid)"])
    }

    mutating func processKilled(_ app: AppID, pid: Int32, reason: KillReason, into effects: inout [BrokerEffect]) {
        let figures = reason == .jetsam ? processes.jetsamFigures.removeValue(forKey: app) : nil
        recordProcess(app, pid: pid > 0 ? pid : nil, .killed, reason: .kill(reason), detail: figures, into: &effects)
        guard processes.installed[app] != nil, pid > 0 else { return }
        let relaunch: LaunchContext.Reason = switch reason {
        case .jetsam: .afterJetsam
        case .watchdog, .backgroundTaskExpired: .afterWatchdog
        case .user, .system, .shutdown, .sceneLifecycleRequired: .afterTerminate
        case .memoryLimit: .afterJetsam
        }
        processes.endings[app] = ProcessBook.Ending(pid: pid, reason: relaunch, text: "killed (\(reason.rawValue))")
    }

    /// The launch options of an installed app's `didFinishLaunching` (journaled as a `launching` record); `nil`
    /// for an app that is not installed.
    mutating func launchContext(of app: AppID, cause: EventID?, into effects: inout [BrokerEffect]) -> LaunchContext? {
        guard processes.installed[app] != nil else { return nil }
        let ending = processes.endings.removeValue(forKey: app)
        let label = cause.map { deliveries.events.cause($0).event } ?? ""
        let context = LaunchContext(
            reason: label.hasPrefix("call --end") ? .callEnded : ending?.reason ?? .user,
            previousPid: ending?.pid, previousEnding: ending?.text, restorationState: processes.restoration[app])
        recordProcess(app, pid: pid(of: app), .launching, launch: context, into: &effects)
        return context
    }

    /// `saveRestorationState`: keeps an installed app's payload for its next launch.
    mutating func saveRestorationState(
        _ params: SaveRestorationStateParams, from session: SessionID, ticket: Ticket,
        into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        guard let app = sessions[session]?.app else {
            throw RPCError(.notAllowedForRole, "only a connected app may call this")
        }
        guard processes.installed[app] != nil else {
            throw RPCError(.appNotFound, "\(app) is not installed: only installed apps are relaunched with their state")
        }
        let limit = LaunchContext.maxRestorationBytes
        guard params.state.utf8.count <= limit else {
            throw .limitExceeded("restorationStateBytes", maximum: limit,
                                 "the restoration state is \(params.state.utf8.count) bytes; at most \(limit) are kept")
        }
        processes.restoration[app] = params.state
        effects.append(.reply(ticket, .success(EmptyResult.json)))
    }

    /// `--freeze-suspended`: a spawned app entering `suspended` is frozen, one leaving it thawed (before the
    /// callback that resumes it is read: the request waits in its socket).
    mutating func freezeOrThaw(
        _ app: AppID, from: LifecycleState, to: LifecycleState, into effects: inout [BrokerEffect]
    ) {
        guard settings.freezesSuspended else { return }
        if to == .suspended, processes.setFrozen(app, true) {
            effects.append(.freeze(app))
        } else if from == .suspended, processes.setFrozen(app, false) {
            effects.append(.thaw(app))
        }
    }

    /// Journals a process record and tells the observers.
    mutating func recordProcess(
        _ app: AppID, pid: Int32?, _ event: ProcessRecord.Event, status: Int32? = nil, signal: Int32? = nil,
        reason: ProcessRecord.Reason? = nil, detail: String? = nil, launch: LaunchContext? = nil,
        implements: [LifecycleCallback] = [], into effects: inout [BrokerEffect]
    ) {
        let record = ProcessRecord(
            seq: journal.lastSequence + 1, app: app.rawValue, pid: pid, event: event, status: status, signal: signal,
            reason: reason, detail: detail, launch: launch, atMs: milliseconds(lifecycleNow), wallMs: wallMs,
            implements: implements)
        appendToJournal(.process(record), into: &effects)
        notifyObservers(LifebusMethod.process, record.json, into: &effects)
    }

    /// The error a refused event answers its `fire` with: `lifebus.TimedOut` when a launch's budget ran out before
    /// the app connected, `lifebus.LaunchFailed` (with the path and errno) when the app's process could not be
    /// started, else `lifebus.EventRejected`.
    func refusalError(_ rejection: Rejection, eventID: Int64, label: String) -> RPCError {
        if rejection.reason == .launchTimedOut, let app = rejection.app {
            return launchTimedOutError(app, eventID: eventID, label: label)
        }
        guard rejection.reason == .launchFailed, let app = rejection.app, let failure = processes.failures[app] else {
            return EventRejection(reason: rejection.reason, eventID: eventID).error("\(label): \(rejection)")
        }
        return RPCError(.launchFailed, "\(label): \(failure.detail)", data: [
            "reason": .string(rejection.reason.rawValue), "eventID": .integer(eventID),
            "app": .string(app.rawValue), "path": .string(failure.path), "errno": .integer(Int64(failure.errno)),
        ])
    }
}
