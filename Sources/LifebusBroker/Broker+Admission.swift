import Glibc
import LifebusIO
import LifebusProtocol
import LifebusRPC
import Logging

/// Who gets in and on what terms: the connection caps, the room kept for peers that have not said `hello`, the
/// per-connection flow limits before and after `hello`, and how a peer is sent away.
extension Broker {
    /// Descriptors kept free for the journal, the listeners and the loop's own, and for the peers sent away in one
    /// turn to make room (at most `maxAcceptsPerTurn`), which close a little later.
    static func reservedDescriptors(_ limits: ConnectionLimits) -> Int {
        32 + limits.maxAcceptsPerTurn
    }

    /// `limits.maxConnections`, raising the soft descriptor limit toward it when the hard limit allows, and lowered
    /// to what the descriptor limit leaves (so the cap, not `EMFILE`, refuses the extra peer, and with a word).
    static func connectionCap(_ limits: ConnectionLimits, logger: Logger) -> Int {
        let wanted = limits.maxConnections
        let reserved = reservedDescriptors(limits)
        let descriptors = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        let unlimited = rlim_t.max  // RLIM_INFINITY (~0) does not import as an unsigned constant
        var limit = rlimit()
        guard getrlimit(descriptors, &limit) == 0, limit.rlim_cur != unlimited else { return wanted }
        let needed = rlim_t(wanted + reserved)
        if limit.rlim_cur < needed {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == unlimited ? needed : min(needed, limit.rlim_max)
            if setrlimit(descriptors, &raised) == 0 { limit = raised }
        }
        let fits = max(1, Int(limit.rlim_cur) - reserved)
        if fits < wanted {
            logger.notice("the descriptor limit lowers the connection cap",
                          metadata: ["lifebus.limit.connections": "\(fits)", "lifebus.limit.wanted": "\(wanted)"])
        }
        return min(wanted, fits)
    }

    /// A connection over the total cap with no unintroduced peer to make room: told why, then closed.
    func refuse(_ session: PeerSession) {
        let error = Self.limitError("connections", "\(connectionCap) connections are open, the most it takes")
        session.rpc.notify(LifebusMethod.error, params: error.json)
        session.rpc.closeAfterFlush()
        logOnce("connections", uid: session.identity.uid, "connection refused: the broker is at its connection limit",
                metadata: [:])
    }

    /// Before `hello`: the short line limit, the small output cap, the stall timeout and the turn's line budget.
    func applyLimitsBeforeHello(to connection: Connection) {
        let limits = configuration.limits
        connection.maxLineLength = configuration.maxLineLengthBeforeHello
        connection.maxLinesPerTurn = limits.maxLinesPerTurn
        connection.writeStallTimeout = limits.writeStallTimeout
        connection.maxPendingWrites = limits.maxOutputMessages
        connection.maxPendingWriteBytes = limits.maxOutputBytesBeforeHello
        connection.readPauseThreshold = ConnectionLimits.readPauseThreshold(
            forOutputCap: limits.maxOutputBytesBeforeHello)
    }

    /// After `hello`: the full line limit and output cap.
    func applyLimitsAfterHello(to connection: Connection) {
        connection.maxLineLength = configuration.maxLineLength
        connection.maxPendingWriteBytes = configuration.limits.maxOutputBytes
        connection.readPauseThreshold = ConnectionLimits.readPauseThreshold(
            forOutputCap: configuration.limits.maxOutputBytes)
    }

    /// Makes room for `session` among the unintroduced peers; false when it cannot be let in.
    ///
    /// At the total cap the oldest unintroduced peer goes (a silent one first), so a newcomer always gets in while
    /// any peer has not said `hello`; with none, the newcomer is refused. Silent peers (not a byte yet) are bounded
    /// on their own: when its uid, or all, are at their cap, the oldest silent one goes. A peer that has spoken is
    /// not pushed out by newcomers below the total cap: its `hello` is on its way (many apps starting at once), and
    /// what it may send before `hello` is bounded (`maxMessagesBeforeHello`, the hello timeout).
    func makeRoom(for session: PeerSession) -> Bool {
        let limits = configuration.limits
        unintroduced.removeAll { $0.role != nil || sessions[$0.number] == nil }
        if sessions.count >= connectionCap {
            guard let oldest = unintroduced.first(where: \.isSilent) ?? unintroduced.first else { return false }
            sendAway(oldest, limit: "connections")
        }
        let silent = unintroduced.filter(\.isSilent)
        let sameUID = silent.filter { $0.identity.uid == session.identity.uid }
        if sameUID.count >= limits.maxConnectionsBeforeHelloPerUID, let oldest = sameUID.first {
            sendAway(oldest, limit: "connectionsBeforeHelloPerUID")
        } else if silent.count >= limits.maxConnectionsBeforeHello, let oldest = silent.first {
            sendAway(oldest, limit: "connectionsBeforeHello")
        }
        return true
    }

    /// Closes an unintroduced peer to make room for a newcomer.
    private func sendAway(_ session: PeerSession, limit: String) {
        unintroduced.removeAll { $0 === session }
        dismiss(session, Self.limitError(limit, "too many connections have not said hello; closing this one"))
        logOnce(limit, uid: session.identity.uid, "closed a connection that had not said hello to make room",
                metadata: session.metadata)
    }

    /// Counts a message that arrived before `hello`; past the cap the peer is sent away. Returns whether it was.
    func overMessagesBeforeHello(_ session: PeerSession) -> Bool {
        session.messagesBeforeHello += 1
        guard session.messagesBeforeHello > configuration.limits.maxMessagesBeforeHello else { return false }
        let limit = configuration.limits.maxMessagesBeforeHello
        dismiss(session, Self.limitError("messagesBeforeHello", "more than \(limit) messages before hello; closing"))
        logOnce("messagesBeforeHello", uid: session.identity.uid, "peer closed: too many messages before hello",
                metadata: session.metadata)
        return true
    }

    /// Tells the peer why (a `lifebus.error` notification) and closes: after the flush when that line went out
    /// whole, at once when output is stuck (a peer that does not read must not hold its connection open).
    func dismiss(_ session: PeerSession, _ error: RPCError) {
        session.stopHelloTimer()
        session.rpc.notify(LifebusMethod.error, params: error.json)
        if session.rpc.connection.pendingWriteBytes == 0 {
            session.rpc.closeAfterFlush()
        } else {
            session.rpc.close()
        }
    }

    static func limitError(_ limit: String, _ message: String) -> RPCError {
        RPCError(.limitExceeded, message, data: ["limit": .string(limit)])
    }

    /// Logs the first violation of `limit` by peers of `uid` (a flood must not flood the log too); later ones only
    /// count toward nothing but their effect.
    func logOnce(_ limit: String, uid: UInt32, _ message: Logger.Message, metadata: Logger.Metadata) {
        guard loggedLimits.insert("\(limit)/\(uid)").inserted else { return }
        logger.warning(message, metadata: metadata.merging(["lifebus.limit": "\(limit)"]) { $1 })
    }
}
