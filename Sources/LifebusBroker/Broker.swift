import LifebusBrokerMachine
import LifebusCore
import LifebusJournal
import LifebusLifecycle
public import LifebusIO
public import Logging
import LifebusProtocol
import LifebusRPC
import LifebusSupervision
import Glibc

/// The broker's libuv driver: listeners, one `RPCPeer` per connection, one timer, the journal file, and the broker
/// machine (`BrokerMachine`) that decides everything. Every event of the loop becomes a `BrokerInput` fed with the
/// monotonic instant (`feed(_:)`); the `BrokerEffect`s that come back are performed in order.
///
/// Bound to the loop it is given: every method runs on that loop's thread. Invariants: a connection is in `peers`
/// from accept until it ends (a refused one is dropped at once); a responder is in `responders` from its request
/// until the machine answers or forgets it; after `shutdown()` nothing is accepted and, once every peer has gone,
/// the socket file is gone.
public final class Broker {
    public let configuration: BrokerConfiguration
    let loop: EventLoop
    var logger: Logger
    private var listeners: [Listener] = []
    /// The lock on the socket path and the identity of the socket bound there (released once a stop has drained).
    private var socketClaim: SocketClaim?
    /// The secret TCP peers present in `hello`, when the broker listens on TCP.
    var tcpToken: TCPToken?
    let clock = BrokerClock()
    /// What every feed and its effects read and write (the machine, the peer and responder tables, the timers, the
    /// effect buffer, the reports held during effects), stored once: `Broker+LoopState` forwards each member.
    // Unchecked: each access to a member is read or written whole (a lookup, an insertion, a removal, a reference or
    // a value replaced; a loop goes over a copy), or changed only by pure value code (the machine: no I/O, no
    // callbacks), so no access spans a call that could reach the broker again (ARCHITECTURE.md, "Exclusivity
    // checks").
    @exclusivity(unchecked) var loopState: LoopState
    var journal = Journal.inMemory()
    /// Peers dropped for their output cap that are still flushing what was queued (pruned as they close; a stop
    /// closes them at once).
    var departing: [SessionID: RPCPeer] = [:]
    /// The installed apps' processes (`Broker+Processes`); made at `start()`.
    var supervisor: Supervisor?
    private var nextSessionNumber: UInt64 = 1
    private var shutdownTimer: LoopTimer?
    /// Called once after `shutdown()`, when the last peer's connection has ended.
    public var onDrained: (() -> Void)?

    /// Whether the broker is stopping: the machine's record of it.
    var isShuttingDown: Bool { machine.isShuttingDown }

    public init(configuration: BrokerConfiguration, loop: EventLoop, logger: Logger) {
        self.configuration = configuration
        self.loop = loop
        self.logger = logger
        self.loopState = LoopState(machine: BrokerMachine(
            settings: configuration.machineSettings(connectionCap: configuration.limits.maxConnections, tcpToken: nil),
            journal: journal, logger: logger, epoch: clock.start))
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
        let settings = configuration.machineSettings(
            connectionCap: Self.connectionCap(configuration.limits, logger: logger), tcpToken: tcpToken?.value)
        machine = BrokerMachine(settings: settings, journal: journal, logger: logger, epoch: clock.start)
        startSupervisor()
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
        feed(.shutdown)
        machineTimer?.close()
        machineTimer = nil
        journalCommitTimer?.close()
        journalCommitTimer = nil
        for peer in departing.values {
            peer.close()
        }
        departing.removeAll()
        logger.info("broker stopping: peers are answered and closed", metadata: ["lifebus.peers": "\(peers.count)"])
        if !peers.isEmpty {
            shutdownTimer = try? LoopTimer(loop: loop)
            shutdownTimer?.start(after: configuration.shutdownGrace) { [unowned self] in
                // Graceful time is up: peers that have not let go are closed regardless.
                for peer in self.peers.values { peer.close() }
            }
        }
        reportDrainedIfDone()
    }

    /// Feeds one input to the machine at the current instant and performs its effects.
    func feed(_ input: BrokerInput) {
        run { $0.handle(input, at: $1, wallMs: $2, into: &$3) }
    }

    /// Feeds an app's answer to a callback. One with nothing but its timing (every answer but a scene's
    /// `stateRestorationActivity` payload or a push's fetch `result`) goes to the machine as its timing alone
    /// (`BrokerMachine.answered`): no `BrokerInput` made, copied and destroyed on the path every callback takes (~80
    /// instructions an answer under callgrind). Any other is fed as `answeredWithRestoration`, whole.
    func feedAnswer(_ app: AppID, _ id: CallbackID, _ answer: Result<CallbackAnswer, RPCError>) {
        let timing: Result<AnswerTiming, RPCError>
        switch answer {
        case .success(let answer) where !answer.isTimingOnly:
            return feed(.answeredWithRestoration(app, id, answer))
        case .success(let answer):
            timing = .success(AnswerTiming(handlerMs: answer.handlerMs, handlerFailed: answer.handlerFailed))
        case .failure(let error):
            timing = .failure(error)
        }
        run { $0.answered(app, id, timing, at: $1, wallMs: $2, into: &$3) }
    }

    /// Lets `handle` give the machine one input at the current instant (the machine, the instant, Unix milliseconds,
    /// the effect buffer), then performs the effects it appended. Inlined into each feed: the closure is not one to
    /// call through.
    @inline(__always)
    private func run(_ handle: (inout BrokerMachine, Instant, Int64, inout [BrokerEffect]) -> Void) {
        var effects = effectBuffer  // empty: emptied when it was put back
        effectBuffer = []
        handle(&machine, clock.now(), clock.wallMilliseconds(), &effects)
        feedDepth += 1
        let host = BrokerLoopHost(broker: self)
        effects.withUnsafeMutableBufferPointer { buffer in  // one uniqueness check, not one per effect
            for index in buffer.indices {
                // Moved out of the buffer, a payload-free effect left in its place: a copy would retain what the
                // effect carries, and emptying the buffer would release it again.
                var effect = BrokerEffect.commitJournal
                swap(&effect, &buffer[index])
                host.perform(consume effect)
            }
        }
        if machine.takeMemorySampleRequest() {
            // Without a supervisor there is nothing to sample: an empty round lets the advance go on.
            if let supervisor { supervisor.sampleMemory() } else { supervisorReports.append(.memory([])) }
        }
        feedDepth -= 1
        // Emptied from the end: each slot holds a payload-free effect now, dropped in place, where
        // `removeAll(keepingCapacity:)` goes through the generic range replacement and each element's value witness.
        while !effects.isEmpty { effects.removeLast() }
        effectBuffer = effects
        if feedDepth == 0, !supervisorReports.isEmpty { feedSupervisorReports() }
    }
}

extension Broker {
    private func accept(_ connection: Connection, overTCP: Bool) {
        let session = SessionID(nextSessionNumber)
        nextSessionNumber += 1
        let rpc = RPCPeer(connection: connection)
        peers[session] = rpc
        applyLimitsBeforeHello(to: connection)
        rpc.maxUnansweredRequests = configuration.limits.maxUnansweredRequests
        rpc.decoding = BrokerDecoding.self  // served names as constants, `fire` params packed for the machine
        // The pre-hello caps count silent peers: tell the machine which of them have spoken since.
        for silent in machine.silentSessions where peers[silent]?.connection.hasReceivedBytes == true {
            feed(.spoke(silent))
        }
        let credentials = connection.peerCredentials
        let identity = PeerIdentity(pid: credentials?.pid ?? 0, uid: credentials?.uid ?? 0, gid: credentials?.gid ?? 0)
        feed(.accepted(session, identity: identity, overTCP: overTCP, spoke: connection.unreadByteCount > 0))
        guard machine.isAdmitted(session) else {
            peers[session] = nil  // refused: told why and closing after the flush; never read
            return
        }
        if overTCP { screenTCP(rpc, session: session) }
        rpc.onRequest = { [unowned self] request, responder in
            self.requested(request, responder, from: session)  // one strong reference made, not one per use
        }
        rpc.onEnd = { [unowned self] end in
            self.ended(session, end)
        }
        rpc.start()
    }

    /// A request from `session`: its responder is kept under a new ticket if it expects an answer, then the
    /// machine hears it.
    private func requested(_ request: RPCRequest, _ responder: RPCResponder, from session: SessionID) {
        var ticket = Ticket.none
        if responder.expectsAnswer {
            ticket = Ticket(nextTicketNumber)
            nextTicketNumber += 1
            responders[ticket] = responder
        }
        feed(.request(session, request, ticket))
    }

    private func ended(_ session: SessionID, _ end: ConnectionEnd) {
        guard let rpc = peers.removeValue(forKey: session) else { return }
        if end == .outputLimitExceeded {
            departing = departing.filter { !$0.value.connection.hasClosed }
            departing[session] = rpc
        }
        // The metadata is built only when the line is logged (an autoclosure): describing `end` reflects on it.
        switch end {
        case .outputLimitExceeded, .writeStalled:
            logger.warning("peer disconnected: it does not read what it is sent", metadata: endMetadata(session, end))
        default:
            logger.debug("peer disconnected", metadata: endMetadata(session, end))
        }
        let drop: OutputDrop? = switch end {
        case .outputLimitExceeded: .outputLimitExceeded
        case .writeStalled: .writeStalled
        default: nil
        }
        feed(.ended(session, droppedFor: drop))
        reportDrainedIfDone()
    }

    private func endMetadata(_ session: SessionID, _ end: ConnectionEnd) -> Logger.Metadata {
        machine.metadata(session).merging(["lifebus.end": "\(end)"]) { $1 }
    }

    private func reportDrainedIfDone() {
        guard isShuttingDown, peers.isEmpty else { return }
        supervisor?.close()  // the spawned apps had their willTerminate and grace: nothing outlives the broker
        if journal.hasUnwrittenLines { _ = journal.commit() }  // what the apps' ends recorded
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

/// Why the broker could not start; its description is what `lifebusd` prints.
public struct BrokerStartError: Error, CustomStringConvertible {
    public let description: String
}
