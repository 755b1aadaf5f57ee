import LifebusIO
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// The SDK's side of the broker connection, on the I/O thread: connects and says hello, reconnects with backoff
/// when the broker goes away, routes the broker's callback requests and notifications to the `Application` on the
/// main actor and their answers back, and carries the app's own requests.
///
/// Owns the `RPCPeer` (while connected) and the reconnection timer. Bound to its loop's thread. Invariants: at
/// most one connection or connection attempt at a time; after `shutdown()` nothing reconnects and every libuv
/// handle it opened is closed, so the loop's `run()` returns.
final class BrokerLink {
    static let notConnected = RPCError(.connectionClosed, "the app is not connected to the broker")

    private let loop: EventLoop
    private let path: String
    private let hello: HelloParams
    private let application: Application
    private let diagnostics: (@Sendable (String) -> Void)?
    private var backoff: Backoff
    /// When the first connection must have succeeded (`ApplicationOptions.connectTimeout`); `nil` once it has.
    private var firstConnectionDeadline: UInt64?
    private var peer: RPCPeer?
    private var retryTimer: LoopTimer?
    private var isShuttingDown = false

    init(loop: EventLoop, path: String, hello: HelloParams, options: ApplicationOptions, application: Application) {
        self.loop = loop
        self.path = path
        self.hello = hello
        self.application = application
        self.diagnostics = options.diagnostics
        self.backoff = Backoff(initial: options.reconnectDelay, maximum: options.maxReconnectDelay)
        self.firstConnectionDeadline = options.connectTimeout.map { timeout in
            let (seconds, attoseconds) = timeout.components
            return EventLoop.monotonicNanoseconds() + UInt64(max(0, seconds)) * 1_000_000_000
                + UInt64(max(0, attoseconds) / 1_000_000_000)
        }
    }

    /// Connects and says hello; on failure, tries again after the next backoff delay.
    func connect() {
        loop.preconditionInLoop()
        BrokerSession.open(path: path, hello: hello, loop: loop, onRequest: { [self] request, responder in
            received(request, responder)
        }) { [self] opened in
            switch opened {
            case .success(let (peer, _)) where isShuttingDown:
                peer.close()
            case .success(let (peer, _)):
                self.peer = peer
                firstConnectionDeadline = nil
                backoff.reset()
                peer.onEnd = { [self] end in lost(end) }
                diagnostics?("lifebus: connected to \(path) as \(hello.appID ?? "?")")
            case .failure(let failure):
                guard !isShuttingDown else { return }
                if let deadline = firstConnectionDeadline, EventLoop.monotonicNanoseconds() >= deadline {
                    giveUp(failure)
                    return
                }
                let delay = backoff.take()
                diagnostics?("lifebus: \(failure); retrying in \(DurationText.format(delay))")
                scheduleReconnect(after: delay)
            }
        }
    }

    /// Sends one request; `completion` runs once on this thread, with the answer or `notConnected`.
    func request(_ method: String, _ params: JSONValue, _ completion: @escaping (Result<JSONValue, RPCError>) -> Void) {
        guard let peer, !isShuttingDown, !peer.connection.isClosed else {
            completion(.failure(Self.notConnected))
            return
        }
        peer.request(method, params: params, completion)
    }

    /// Stops for good: no reconnection; the connection closes once what is queued (the last answer) is written.
    func shutdown() {
        isShuttingDown = true
        retryTimer?.close()
        retryTimer = nil
        peer?.closeAfterFlush()  // the peer stays referenced until its onEnd (`lost`): it must outlive its reads
    }

    /// The first connection did not succeed in time: no more attempts; `run` returns with the failure.
    private func giveUp(_ failure: BrokerSession.Failure) {
        let application = application
        let reason = "\(failure)"
        Task { @MainActor in application.connectFailure = reason }
        shutdown()
    }

    private func lost(_ end: ConnectionEnd) {
        peer = nil
        guard !isShuttingDown else { return }
        let application = application
        Task { @MainActor in application.connectionLost() }
        let delay = backoff.take()
        diagnostics?("lifebus: the broker connection ended (\(end)); reconnecting in \(DurationText.format(delay))")
        scheduleReconnect(after: delay)
    }

    private func scheduleReconnect(after delay: Duration) {
        do throws(UVError) {
            if retryTimer == nil { retryTimer = try LoopTimer(loop: loop) }
            retryTimer?.start(after: delay) { [self] in connect() }
        } catch {
            preconditionFailure("the Lifebus SDK cannot create a timer: \(error)")
        }
    }
}

extension BrokerLink {
    /// Routes one request or notification from the broker.
    private func received(_ request: RPCRequest, _ responder: RPCResponder) {
        if request.method == LifebusMethod.backgroundTaskExpiring {
            guard let params = try? BackgroundTaskExpiringParams(json: request.params ?? .null) else { return }
            let application = application
            let task = BackgroundTaskIdentifier(rawValue: params.taskID)
            Task { @MainActor in application.backgroundTaskExpiring(task) }
            return
        }
        guard let method = LifecycleCallback(rawValue: request.method) else {
            responder.fail(.methodNotFound(request.method))
            return
        }
        let callback: CallbackParams
        do throws(RPCError) {
            callback = try CallbackParams(json: request.params ?? .null)
        } catch {
            responder.fail(error)
            return
        }
        guard callback.callback == method else {
            responder.fail(.invalidParams(field: "callback", "must match the method \(request.method)"))
            return
        }
        deliver(callback, responder)
    }

    /// Runs the callback on the main actor, then answers on this thread; after `willTerminate`, shuts down.
    private func deliver(_ callback: CallbackParams, _ responder: RPCResponder) {
        let application = application
        let executor = loop.executor
        let pending = LoopBound((link: self, responder: responder), loop: loop)
        Task { @MainActor in
            let answer = await application.deliver(callback)
            executor.execute {
                pending.value.responder.succeed(answer.json)
                if callback.callback == .willTerminate {
                    pending.value.link.shutdown()
                }
            }
        }
    }
}
