import Glibc
import LifebusBrokerMachine
import LifebusCore
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC
import LifebusSupervision

/// The broker as the machine's host: each call moves bytes to a peer, a process command to the supervisor, or the
/// one libuv timer; `BrokerHost.perform(_:)` (in the machine's module) maps the effects to these calls and keeps the
/// timer's rule. A handle made per `feed` (the broker's host calls are its own, not public API).
struct BrokerLoopHost: BrokerHost {
    // Unowned(unsafe): made by the broker for the effects of one `feed` and dropped before it returns; the broker
    // outlives it, and no reference count moves per feed.
    unowned(unsafe) let broker: Broker

    var timerArmedFor: Instant? {
        get { broker.timerArmedFor }
        nonmutating set { broker.timerArmedFor = newValue }
    }

    func currentInstant() -> Instant { broker.clock.now() }

    func startTimer(afterMilliseconds milliseconds: UInt64) {
        if let machineTimer = broker.machineTimer { return machineTimer.restart(afterMilliseconds: milliseconds) }
        do throws(UVError) {
            let timer = try LoopTimer(loop: broker.loop)
            timer.start(after: .milliseconds(milliseconds)) { [unowned broker = self.broker] in
                broker.timerArmedFor = nil
                broker.feed(.timerFired)
            }
            broker.machineTimer = timer
        } catch {
            broker.logger.error("cannot create the broker's timer", metadata: ["lifebus.error": "\(error)"])
        }
    }

    func answer(_ ticket: Ticket, _ result: Result<JSONValue, RPCError>) {
        broker.responders.removeValue(forKey: ticket)?.answer(result)
    }

    func answerFire(_ ticket: Ticket, _ result: WrittenFireResult) {
        broker.responders.removeValue(forKey: ticket)?.succeed(
            writingHead: { result.writeHead(to: &$0) }, splicing: result.transitionsText,
            writingTail: { result.writeTail(to: &$0) })
    }

    func answerPing(_ ticket: Ticket, _ result: PingResult) {
        broker.responders.removeValue(forKey: ticket)?.succeed(writing: { result.write(to: &$0) })
    }

    func forget(_ ticket: Ticket) {
        broker.responders[ticket] = nil
    }

    func notify(_ session: SessionID, method: String, params: JSONValue) {
        broker.peers[session]?.notify(method, params: params)
    }

    func sendCallback(to session: SessionID, _ params: CallbackParams, app: AppID, id: CallbackID) {
        guard let peer = broker.peers[session] else { return }
        // Set once per session: a session says hello once, as one app (`lifebus.AlreadyIntroduced` after).
        peer.answerCallbacks {
            { [unowned broker = self.broker] tag, answer in
                broker.feedAnswer(app, CallbackID(tag), answer)
            }
        }
        // A closure written out, not a method reference (`params.writeRequest`): a reference to a value's method
        // is a closure that holds a copy of the value on the heap, made and freed per callback.
        peer.request(writingRequest: { params.writeRequest(id: $0, to: &$1) }, answerTag: id.rawValue)
    }

    func liftLimits(of session: SessionID) {
        if let connection = broker.peers[session]?.connection { broker.applyLimitsAfterHello(to: connection) }
    }

    func close(_ session: SessionID, _ closing: BrokerEffect.Closing) {
        guard let peer = broker.peers[session] else { return }
        switch closing {
        case .now:
            peer.close()
        case .afterFlush:
            peer.closeAfterFlush()
        case .afterFlushUnlessStuck:
            if peer.connection.pendingWriteBytes == 0 { peer.closeAfterFlush() } else { peer.close() }
        }
    }

    func holdProcess(of app: AppID, session: SessionID, pid: Int32) {
        guard let socket = broker.peers[session]?.connection.fileDescriptor else { return }
        broker.supervisor?.attach(appID: app.rawValue, socket: socket, pid: pid)
    }

    func releaseProcess(of app: AppID) {
        broker.supervisor?.detach(appID: app.rawValue)
    }

    func kill(_ app: AppID, via route: KillRoute, reason: KillReason) {
        switch route {
        case .group:
            broker.supervisor?.perform(.kill(appID: app.rawValue, reason: reason))
            return
        case .pid(let pid):
            if broker.supervisor?.killHeld(app.rawValue, pid: pid) == true { return }
            guard let error = ProcessSignal.kill(processOrItsGroup: pid), !error.isNoSuchProcess else { return }
            broker.logger.warning(
                "cannot kill the app", metadata: ["lifebus.app.id": "\(app)", "lifebus.error": "\(error)"])
        }
    }

    func spawn(_ app: InstalledApp) {
        broker.supervisor?.perform(.spawn(AppManifest(
            id: app.id.rawValue, executable: app.executable, arguments: app.arguments, environment: app.environment,
            workingDirectory: app.workingDirectory, exitsOnSuspend: app.flags.exitsOnSuspend,
            backgroundModes: app.flags.backgroundModes, launchInBackground: app.flags.launchInBackground,
            memoryLimit: app.memoryLimit, hooks: app.hooks)))
    }

    func freeze(_ app: AppID) {
        broker.supervisor?.perform(.freeze(appID: app.rawValue))
    }

    func thaw(_ app: AppID) {
        broker.supervisor?.perform(.thaw(appID: app.rawValue))
    }

    func readManifest(for ticket: Ticket, from source: ManifestSource) {
        broker.install(ticket, source)
    }

    func requestJournalCommit() {
        if broker.machine.isCommitRequested { broker.scheduleJournalCommit() }
    }
}
