import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// The SDK's side of the broker connection, on the I/O thread: connects and says hello, reconnects with backoff
/// when the broker goes away, routes the broker's callback requests and notifications to the `Application` on the
/// main actor and their answers back, and carries the app's own requests.
///
/// Owns the `RPCPeer` (while connected) and the `BrokerConnector` that (re)connects under one `RetryPolicy`: the
/// options' delays, the first connection bounded by `connectTimeout`, reconnections forever. An app that adopts
/// scenes and whose `hello` a broker refuses with `lifebus.ScenesUnsupported` (a profile without scenes: ios3, ios4,
/// ios7) says hello again at once without scenes and runs the app-delegate life cycle from then on, as iOS 12 runs
/// an app with a scene manifest (`Application.fellBackFromScenes`; unless `ApplicationOptions.fallsBackFromScenes` is
/// off). Bound to its loop's thread. Invariants: at most one connection or connection attempt at a time; after
/// `shutdown()` nothing reconnects and every libuv handle it opened is closed, so the loop's `run()` returns.
final class BrokerLink {
    static let notConnected = RPCError(.connectionClosed, "the app is not connected to the broker")

    private let loop: EventLoop
    private let path: String
    /// The hello said; without scenes once the broker refused them.
    private var hello: HelloParams
    private let application: Application
    private let diagnostics: (@Sendable (String) -> Void)?
    /// `ApplicationOptions.fallsBackFromScenes`.
    private let fallsBackFromScenes: Bool
    private var connector: BrokerConnector
    /// The first connection's policy (bounded by `connectTimeout`); reconnections use it without a deadline.
    private let firstPolicy: RetryPolicy
    private var peer: RPCPeer?
    private var isShuttingDown = false
    /// Why the first connection failed, once it has; read after the loop ended (`Application.run`).
    private(set) var connectFailure: String?

    init(loop: EventLoop, path: String, hello: HelloParams, options: ApplicationOptions, application: Application) {
        self.loop = loop
        self.path = path
        self.hello = hello
        self.application = application
        let diagnostics = options.diagnostics
        self.diagnostics = diagnostics
        self.fallsBackFromScenes = options.fallsBackFromScenes
        self.firstPolicy = RetryPolicy(
            initialDelay: options.reconnectDelay, maximumDelay: options.maxReconnectDelay,
            deadline: options.connectTimeout, busyDeadline: options.connectTimeout, retriesRefusals: true)
        self.connector = Self.connector(path: path, hello: hello, loop: loop, diagnostics: diagnostics)
    }

    private static func connector(
        path: String, hello: HelloParams, loop: EventLoop, diagnostics: (@Sendable (String) -> Void)?
    ) -> BrokerConnector {
        let connector = BrokerConnector(path: path, hello: hello, loop: loop)
        connector.onRetry = { failure, delay in
            diagnostics?("lifebus: \(failure); retrying in \(DurationText.format(delay))")
        }
        return connector
    }

    /// Connects and says hello, trying again under the first connection's policy; gives up when it does.
    func connect() {
        open(policy: firstPolicy, waitingFirst: false)
    }

    private func open(policy: RetryPolicy, waitingFirst: Bool) {
        loop.preconditionInLoop()
        connector.connect(policy: policy, waitingFirst: waitingFirst) { [self] opened in
            switch opened {
            case .success(let (peer, _)):
                self.peer = peer
                peer.onRequest = { [self] request, responder in received(request, responder) }
                peer.onEnd = { [self] end in lost(end) }
                diagnostics?("lifebus: connected to \(path) as \(hello.appID ?? "?")")
            case .failure(.refused(let error))
            where error.lifebusCode == .scenesUnsupported && hello.flags.adoptsScenes && fallsBackFromScenes:
                fallBackFromScenes(error)
                open(policy: policy, waitingFirst: false)
            case .failure(let failure):
                giveUp(failure)
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
        connector.cancel()
        peer?.closeAfterFlush()  // the peer stays referenced until its onEnd (`lost`): it must outlive its reads
    }

    /// The broker's profile has no scenes: from now on the app says hello without them (and without the scene
    /// callbacks among those it implements) and runs the app-delegate life cycle; the scene delegate is never called.
    private func fallBackFromScenes(_ error: RPCError) {
        hello.flags.adoptsScenes = false
        hello.flags.supportsMultipleScenes = false
        hello.flags.implementedCallbacks.removeAll(where: ApplicationOptions.isSceneOnly)
        connector.cancel()
        connector = Self.connector(path: path, hello: hello, loop: loop, diagnostics: diagnostics)
        diagnostics?("lifebus: \(error.message); running the app-delegate life cycle instead")
        let application = application
        Task { @MainActor in application.fellBackFromScenes = true }
    }

    /// The first connection did not succeed in time: no more attempts; `run` returns with the failure.
    private func giveUp(_ failure: BrokerSession.Failure) {
        connectFailure = "\(failure)"
        shutdown()
    }

    private func lost(_ end: ConnectionEnd) {
        peer = nil
        guard !isShuttingDown else { return }
        let application = application
        Task { @MainActor in application.connectionLost() }
        var forever = firstPolicy
        forever.deadline = nil
        forever.busyDeadline = nil
        diagnostics?("lifebus: the broker connection ended (\(end)); reconnecting in "
            + DurationText.format(forever.initialDelay))
        open(policy: forever, waitingFirst: true)
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
        if request.method == LifebusMethod.protectedDataChanged {
            guard let params = try? ProtectedDataParams(json: request.params ?? .null) else { return }
            // Set here, on the I/O thread, so that a callback read after it (e.g. the next one) sees it already.
            application.protectedData.set(available: params.available)
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
