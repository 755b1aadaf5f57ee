import LifebusCore
import LifebusLifecycle
import LifebusProtocol
public import Logging

/// Who gets in and on what terms, and how a session leaves: the connection cap, the room kept for peers that have
/// not said `hello`, the hello deadline, the messages allowed before `hello`, how a peer is sent away
/// (`Protocol/README.md` §15), and what a session's end drops.
extension BrokerMachine {
    static let shuttingDownError = RPCError(.brokerShuttingDown, "the broker is shutting down")

    mutating func accept(
        _ session: SessionID, identity: PeerIdentity, overTCP: Bool, spoke: Bool, into effects: inout [BrokerEffect]
    ) {
        guard !isShuttingDown else {
            // Told the broker is stopping, then closed; never admitted.
            effects.append(.notify(session, method: LifebusMethod.error, params: Self.shuttingDownError.json))
            effects.append(.close(session, .afterFlush))
            return
        }
        guard makeRoom(forUID: identity.uid, into: &effects) else {
            refuse(session, identity: identity, into: &effects)
            return
        }
        sessions.admit(session, identity: identity, overTCP: overTCP, spoke: spoke)
        clock.arm(.hello(session), at: now + settings.helloTimeout)
        logger.debug("peer connected", metadata: metadata(session))
    }

    /// The session's connection ended: it leaves every list, its waits are dropped, its app disconnects. An app
    /// dropped for its output gets a `process` record `disconnected` naming why, and ends `disconnected`.
    mutating func ended(_ session: SessionID, droppedFor drop: OutputDrop?, into effects: inout [BrokerEffect]) {
        guard let record = sessions.end(session) else { return }
        if record.role == nil { clock.cancel(.hello(session)) }
        cancelAdvance(of: session, into: &effects)
        for waiter in deliveries.waiters.cancel(session: session) {
            clock.cancel(.wait(number: waiter.number, app: waiter.app))
            effects.append(.forget(waiter.ticket))
        }
        if let app = record.app {
            effects.append(.releaseProcess(app))
            if let drop {
                let pid = record.identity.pid > 0 ? record.identity.pid : nil
                recordProcess(app, pid: pid, .disconnected, reason: .drop(drop), into: &effects)
                feedDevice(.appDroppedForOutput(app), into: &effects)
            } else {
                feedDevice(.appDisconnected(app), into: &effects)
            }
        }
    }

    /// A connection over the total cap with no unintroduced peer to make room: told why, then closed.
    private mutating func refuse(_ session: SessionID, identity: PeerIdentity, into effects: inout [BrokerEffect]) {
        let error = Self.limitError("connections", "\(settings.connectionCap) connections are open, the most it takes")
        effects.append(.notify(session, method: LifebusMethod.error, params: error.json))
        effects.append(.close(session, .afterFlush))
        logOnce("connections", uid: identity.uid, "connection refused: the broker is at its connection limit",
                metadata: [:])
    }

    /// Makes room for a newcomer among the unintroduced peers; false when it cannot be let in.
    ///
    /// At the total cap the oldest unintroduced peer goes (a silent one first), so a newcomer always gets in while
    /// any peer has not said `hello`; with none, the newcomer is refused. Silent peers (not a byte yet) are bounded
    /// on their own: when its uid, or all, are at their cap, the oldest silent one goes. A peer that has spoken is
    /// not pushed out by newcomers below the total cap: its `hello` is on its way (many apps starting at once), and
    /// what it may send before `hello` is bounded (`maxMessagesBeforeHello`, the hello timeout).
    private mutating func makeRoom(forUID uid: UInt32, into effects: inout [BrokerEffect]) -> Bool {
        if sessions.count >= settings.connectionCap {
            let oldestSilent = sessions.unintroduced.first { !$0.hasSpoken }
            guard let oldest = oldestSilent ?? sessions.unintroduced.first else { return false }
            sendAway(oldest.session, limit: "connections", into: &effects)
        }
        var silent = 0
        var sameUID = 0
        var oldestSilent: SessionID?
        var oldestOfUID: SessionID?
        for newcomer in sessions.unintroduced where !newcomer.hasSpoken {
            silent += 1
            if oldestSilent == nil { oldestSilent = newcomer.session }
            guard newcomer.uid == uid else { continue }
            sameUID += 1
            if oldestOfUID == nil { oldestOfUID = newcomer.session }
        }
        if sameUID >= settings.maxConnectionsBeforeHelloPerUID, let oldest = oldestOfUID {
            sendAway(oldest, limit: "connectionsBeforeHelloPerUID", into: &effects)
        } else if silent >= settings.maxConnectionsBeforeHello, let oldest = oldestSilent {
            sendAway(oldest, limit: "connectionsBeforeHello", into: &effects)
        }
        return true
    }

    /// Bytes came from an unintroduced session: it is silent no more.
    mutating func noteSpoken(_ session: SessionID) {
        sessions.noteSpoken(session)
    }

    /// Closes an unintroduced peer to make room for a newcomer (it stays a session until its connection ends).
    private mutating func sendAway(_ session: SessionID, limit: String, into effects: inout [BrokerEffect]) {
        let uid = sessions[session]?.identity.uid ?? 0
        logOnce(limit, uid: uid, "closed a connection that had not said hello to make room",
                metadata: metadata(session))
        sessions.sendAway(session)
        dismiss(session, Self.limitError(limit, "too many connections have not said hello; closing this one"),
                into: &effects)
    }

    /// Counts a message that arrived before `hello`; past the cap the peer is sent away. Returns whether it was.
    mutating func overMessagesBeforeHello(_ session: SessionID, into effects: inout [BrokerEffect]) -> Bool {
        guard let count = sessions.countMessageBeforeHello(session) else { return true }
        let limit = settings.maxMessagesBeforeHello
        guard count > limit else { return false }
        dismiss(session, Self.limitError("messagesBeforeHello", "more than \(limit) messages before hello; closing"),
                into: &effects)
        logOnce("messagesBeforeHello", uid: sessions[session]?.identity.uid ?? 0,
                "peer closed: too many messages before hello", metadata: metadata(session))
        return true
    }

    mutating func helloTimedOut(_ session: SessionID, into effects: inout [BrokerEffect]) {
        let timeout = DurationText.format(settings.helloTimeout)
        dismiss(session, RPCError(.helloTimeout, "no hello within \(timeout); closing"), into: &effects)
        logger.info("peer closed: no hello in time", metadata: metadata(session))
    }

    /// Tells the peer why (a `lifebus.error` notification) and closes it: after the flush when that line went out
    /// whole, at once when output is stuck.
    mutating func dismiss(_ session: SessionID, _ error: RPCError, into effects: inout [BrokerEffect]) {
        clock.cancel(.hello(session))
        effects.append(.notify(session, method: LifebusMethod.error, params: error.json))
        effects.append(.close(session, .afterFlushUnlessStuck))
    }

    static func limitError(_ limit: String, _ message: String) -> RPCError {
        RPCError(.limitExceeded, message, data: ["limit": .string(limit)])
    }

    /// Logs the first violation of `limit` by peers of `uid` (a flood must not flood the log too).
    mutating func logOnce(_ limit: String, uid: UInt32, _ message: Logger.Message, metadata: Logger.Metadata) {
        guard loggedLimits.insert("\(limit)/\(uid)").inserted else { return }
        logger.warning(message, metadata: metadata.merging(["lifebus.limit": "\(limit)"]) { $1 })
    }

    /// What the log says of a session (its number, the kernel's pid, its role).
    public func metadata(_ session: SessionID) -> Logger.Metadata {
        let record = sessions[session]
        return [
            "lifebus.peer.session": "\(session)",
            "lifebus.peer.pid": "\(record?.identity.pid ?? 0)",
            "lifebus.peer.role": "\(record?.role.map(\.rawValue) ?? "none")",
        ]
    }
}
