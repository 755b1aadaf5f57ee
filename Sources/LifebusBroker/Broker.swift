import LifebusCore
public import LifebusIO
import LifebusLifecycle
public import Logging
import LifebusProtocol
import LifebusRPC
import Glibc

/// The broker: accepts peers on its socket, introduces them, and answers their requests.
///
/// Owns its listeners and every peer session. Bound to the loop it is given: every method runs on that loop's
/// thread. Invariants: a session is in `sessions` from accept until its connection ends; after `shutdown()` nothing
/// is accepted and the socket file is gone.
public final class Broker {
    public let configuration: BrokerConfiguration
    let loop: EventLoop
    var logger: Logger
    private var listeners: [Listener] = []
    /// The lock on the socket path and the identity of the socket bound there (released once a stop has drained).
    private var socketClaim: SocketClaim?
    /// The secret TCP peers present in `hello`, when the broker listens on TCP.
    var tcpToken: TCPToken?
    var sessions: [UInt64: PeerSession] = [:]
    /// Sessions in the order they connected that had not said `hello` when last looked at (pruned lazily).
    var unintroduced: [PeerSession] = []
    /// `limits.maxConnections`, lowered to fit the descriptor limit at start.
    var connectionCap = 0
    /// The (limit, uid) pairs whose first violation was logged.
    var loggedLimits: Set<String> = []
    /// Peers dropped for their output cap that are still flushing what was queued (pruned as they close; a stop
    /// closes them at once).
    private var departing: [UInt64: RPCPeer] = [:]
    let clock = BrokerClock()
    /// The lifecycle machine; fed only through `feed(_:)`.
    var device: Device
    var journal = Journal.inMemory()
    /// The live connection of each connected app.
    var appSessions: [AppID: PeerSession] = [:]
    var observers: [UInt64: PeerSession] = [:]
    /// The core's timers, all served by `deviceTimer`.
    var timerSchedule = TimerSchedule()
    var deviceTimer: LoopTimer?
    /// Writes the journal's gathered lines at the end of the loop turn that appended them.
    var journalFlushTimer: LoopTimer?
    /// Answers and notifications waiting for the turn's journal commit (`--journal-sync` only; one loop turn's).
    var journalDeliveries: [(Bool) -> Void] = []
    var scheduledDeadline: Instant?
    var events = EventBook()
    var waiters = WaiterList()
    /// Each app's state as last seen after an input, and when it entered it (for `status` and `wait`).
    var stateSince: [AppID: (state: LifecycleState, since: Instant)] = [:]
    var nextTaskNumber: UInt64 = 1
    var actionBuffer: [Action] = []
    private var nextSessionNumber: UInt64 = 1
    private(set) var isShuttingDown = false
    private var shutdownTimer: LoopTimer?
    /// Called once after `shutdown()`, when the last peer's connection has ended.
    public var onDrained: (() -> Void)?

    public init(configuration: BrokerConfiguration, loop: EventLoop, logger: Logger) {
        self.configuration = configuration
        self.loop = loop
        self.logger = logger
        self.device = Device(configuration: configuration.deviceConfiguration)
    }

    /// Takes the socket path (removing a stale socket left by a dead broker) and starts accepting.
    /// Returns the addresses it listens on.
    @discardableResult
    public func start() throws(BrokerStartError) -> [SocketAddress] {
        do {
            try ensurePrivateDirectory()
            socketClaim = try SocketClaim.take(configuration.socketPath)
            if configuration.tcpPort != nil {
                tcpToken = try TCPToken.create(at: TCPToken.path(besideSocket: configuration.socketPath))
            }
            journal = try Journal(settings: configuration.journalSettings, logger: logger)
            beginJournalRun()
        } catch let error as SocketFile.Problem {
            throw BrokerStartError(description: error.description)
        } catch {
            throw BrokerStartError(description: "\(error)")
        }
        connectionCap = Self.connectionCap(configuration.limits, logger: logger)
        var addresses: [SocketAddress] = [.unix(configuration.socketPath)]
        if let port = configuration.tcpPort {
            addresses.append(.tcp(host: "127.0.0.1", port: port))
        }
        for address in addresses {
            let overTCP = if case .tcp = address { true } else { false }
            do {
                let listener = try Listener.listen(on: address, loop: loop, keepsSocketFile: true) {
                    [unowned self] connection in
                    self.accept(connection, overTCP: overTCP)
                }
                listener.maxAcceptsPerTurn = configuration.limits.maxAcceptsPerTurn
                listeners.append(listener)
                if case .unix = address { socketClaim?.noteBound() }
            } catch {
                shutdown()
                throw BrokerStartError(description: "cannot listen on \(address): \(error)")
            }
        }
        return listeners.map(\.boundAddress)
    }

    /// Answers every pending request `lifebus.BrokerShuttingDown`, closes every peer after what is queued for it is
    /// written, and once they are gone stops listening and removes the socket file (meanwhile a new connection is
    /// told the broker is stopping, then closed).
    public func shutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        deviceTimer?.close()
        deviceTimer = nil
        commitJournal()
        journalFlushTimer?.close()
        journalFlushTimer = nil
        timerSchedule.removeAll()
        answerPendingRequestsShuttingDown()
        for session in sessions.values {
            session.stopHelloTimer()
            session.rpc.closeAfterFlush()
        }
        for peer in departing.values {
            peer.close()
        }
        departing.removeAll()
        logger.info("broker stopping: peers are answered and closed", metadata: ["lifebus.peers": "\(sessions.count)"])
        if !sessions.isEmpty {
            shutdownTimer = try? LoopTimer(loop: loop)
            shutdownTimer?.start(after: configuration.shutdownGrace) { [unowned self] in
                // Graceful time is up: peers that have not let go are closed regardless.
                for session in self.sessions.values { session.rpc.close() }
            }
        }
        reportDrainedIfDone()
    }
}

extension Broker {
    private func accept(_ connection: Connection, overTCP: Bool) {
        guard !isShuttingDown else {
            refuseShuttingDown(connection)
            return
        }
        applyLimitsBeforeHello(to: connection)
        let session = PeerSession(number: nextSessionNumber, rpc: RPCPeer(connection: connection))
        session.rpc.maxUnansweredRequests = configuration.limits.maxUnansweredRequests
        session.spokeAtAccept = connection.unreadByteCount > 0
        guard makeRoom(for: session) else {
            refuse(session)
            return
        }
        nextSessionNumber += 1
        sessions[session.number] = session
        if overTCP { screenTCP(session) }
        unintroduced.append(session)
        session.rpc.onRequest = { [unowned self, unowned session] request, responder in
            self.handle(request, from: session, responder: responder)
        }
        session.rpc.onEnd = { [unowned self, unowned session] end in
            self.ended(session, end)
        }
        startHelloTimer(for: session)
        session.rpc.start()
        logger.debug("peer connected", metadata: session.metadata)
    }

    private func startHelloTimer(for session: PeerSession) {
        do {
            let timer = try LoopTimer(loop: loop)
            timer.start(after: configuration.helloTimeout) { [unowned self, unowned session] in
                self.helloTimedOut(session)
            }
            session.helloTimer = timer
        } catch {
            logger.error("cannot arm the hello timer; closing the peer", metadata: ["lifebus.error": "\(error)"])
            session.rpc.close()
        }
    }

    private func helloTimedOut(_ session: PeerSession) {
        session.stopHelloTimer()
        let timeout = DurationText.format(configuration.helloTimeout)
        dismiss(session, RPCError(.helloTimeout, "no hello within \(timeout); closing"))
        logger.info("peer closed: no hello in time", metadata: session.metadata)
    }

    private func ended(_ session: PeerSession, _ end: ConnectionEnd) {
        session.stopHelloTimer()
        sessions[session.number] = nil
        observers[session.number] = nil
        waiters.cancel(session: session.number)
        if let app = session.appID, appSessions[app] === session {
            appSessions[app] = nil
            feed(.appDisconnected(app))
        }
        if end == .outputLimitExceeded {
            departing = departing.filter { !$0.value.connection.hasClosed }
            departing[session.number] = session.rpc
        }
        switch end {
        case .outputLimitExceeded, .writeStalled:
            logger.warning("peer disconnected: it does not read what it is sent",
                           metadata: session.metadata.merging(["lifebus.end": "\(end)"]) { $1 })
        default:
            logger.debug("peer disconnected", metadata: session.metadata.merging(["lifebus.end": "\(end)"]) { $1 })
        }
        reportDrainedIfDone()
    }

    private func reportDrainedIfDone() {
        guard isShuttingDown, sessions.isEmpty else { return }
        for listener in listeners {
            listener.close()
        }
        listeners.removeAll()
        socketClaim?.release()
        tcpToken?.remove()
        shutdownTimer?.close()
        shutdownTimer = nil
        if let drained = onDrained {
            onDrained = nil
            drained()
        }
    }
}

extension PeerSession {
    var metadata: Logger.Metadata {
        [
            "lifebus.peer.session": "\(number)",
            "lifebus.peer.pid": "\(identity.pid)",
            "lifebus.peer.role": "\(role.map(\.rawValue) ?? "none")",
        ]
    }
}

/// Why the broker could not start; its description is what `lifebusd` prints.
public struct BrokerStartError: Error, CustomStringConvertible {
    public let description: String
}
