import Glibc
import LifebusBrokerMachine
import LifebusCore
import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// The performing of every effect the machine asks for: answers through the responder kept for the ticket, lines
/// and callback requests to a session's peer, closes, SIGKILL, the one timer and the end-of-turn journal commit.
extension Broker {
    func perform(_ effect: BrokerEffect) {
        switch effect {
        case .reply(let ticket, let result):
            responders.removeValue(forKey: ticket)?.answer(result)
        case .replyFire(let ticket, let result):
            responders.removeValue(forKey: ticket)?.succeed(
                writingHead: { result.writeHead(to: &$0) }, splicing: result.transitionsText,
                writingTail: { result.writeTail(to: &$0) })
        case .replyPing(let ticket, let result):
            responders.removeValue(forKey: ticket)?.succeed(writing: { result.write(to: &$0) })
        case .forget(let ticket):
            responders[ticket] = nil
        case .notify(let session, let method, let params):
            peers[session]?.notify(method, params: params)
        case .sendCallback(let session, let params, let app, let id):
            guard let peer = peers[session] else { break }
            // Set once per session: a session says hello once, as one app (`lifebus.AlreadyIntroduced` after).
            peer.answerCallbacks {
                { [unowned self] tag, answer in self.feed(.callbackAnswered(app, CallbackID(tag), answer)) }
            }
            // A closure written out, not a method reference (`params.writeRequest`): a reference to a value's method
            // is a closure that holds a copy of the value on the heap, made and freed per callback.
            peer.request(writingRequest: { params.writeRequest(id: $0, to: &$1) }, answerTag: id.rawValue)
        case .introduced(let session):
            if let connection = peers[session]?.connection { applyLimitsAfterHello(to: connection) }
            attachProcess(of: session)
        case .close(let session, let closing):
            close(session, closing)
        case .kill(let app, let pid, let reason):
            kill(app, pid: pid, reason: reason)
        case .spawn(let app):
            supervisor?.perform(.spawn(appID: app.rawValue))
        case .install(let ticket, let source):
            install(ticket, source)
        case .freeze(let app):
            supervisor?.perform(.freeze(appID: app.rawValue))
        case .thaw(let app):
            supervisor?.perform(.thaw(appID: app.rawValue))
        case .uninstall(let app):
            supervisor?.uninstall(app.rawValue)
        case .armTimer(let deadline):
            armMachineTimer(at: deadline)
        case .commitJournal:
            if machine.isCommitRequested { scheduleJournalCommit() }
        }
    }

    private func close(_ session: SessionID, _ closing: BrokerEffect.Closing) {
        guard let peer = peers[session] else { return }
        switch closing {
        case .now:
            peer.close()
        case .afterFlush:
            peer.closeAfterFlush()
        case .afterFlushUnlessStuck:
            if peer.connection.pendingWriteBytes == 0 { peer.closeAfterFlush() } else { peer.close() }
        }
    }

    private func kill(_ app: AppID, pid: Int32, reason: KillReason) {
        if killThroughSupervisor(app, reason: reason) { return }
        // Never itself: an app connected from inside the broker's own process (the in-process fuzzer) shares its pid.
        guard pid > 0, pid != getpid(), let error = ProcessSignal.kill(processOrItsGroup: pid), !error.isNoSuchProcess
        else { return }
        logger.warning("cannot kill the app", metadata: ["lifebus.app.id": "\(app)", "lifebus.error": "\(error)"])
    }

    /// Points the one libuv timer at the machine's earliest deadline when that is earlier than the instant it is armed
    /// for, or it is not armed (`machineTimerDeadline`).
    private func armMachineTimer(at deadline: Instant?) {
        guard !isShuttingDown, let deadline else { return }
        if let armed = machineTimerDeadline, armed <= deadline { return }
        let now = clock.now()
        // Whole milliseconds, rounded up so the deadline never fires early, from the instants' nanoseconds.
        let nanoseconds = deadline > now ? deadline.nanoseconds - now.nanoseconds : 0
        let milliseconds = (nanoseconds + 999_999) / 1_000_000
        if let machineTimer {
            machineTimer.restart(afterMilliseconds: milliseconds)
        } else {
            do throws(UVError) {
                let timer = try LoopTimer(loop: loop)
                timer.start(after: .milliseconds(milliseconds)) { [unowned self] in
                    self.machineTimerDeadline = nil
                    self.feed(.timerFired)
                }
                machineTimer = timer
            } catch {
                logger.error("cannot create the broker's timer", metadata: ["lifebus.error": "\(error)"])
                return
            }
        }
        machineTimerDeadline = deadline
    }
}
