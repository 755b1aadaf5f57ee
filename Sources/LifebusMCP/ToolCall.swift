import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

/// One `tools/call` in flight: its own conversation with the broker, its progress notifications, and its
/// cancellation.
///
/// Owns the broker peer it opened (one connection per call, so cancelling a call closes just its connection and the
/// broker drops what it was doing for it, such as a `wait`) and its progress timer. Bound to the server's loop.
/// Invariants: the call answers at most once, and never after it was cancelled; `end` releases the peer and the
/// timer and removes the call from the server, once.
final class ToolCall {
    /// How often a call with a `progressToken` reports progress while it waits.
    static let progressInterval = Duration.milliseconds(500)

    let id: RPCID
    unowned let server: MCPServer
    private let progressToken: JSONValue?
    private let startedNanoseconds = EventLoop.monotonicNanoseconds()
    private var peer: RPCPeer?
    private var progressTimer: LoopTimer?
    private var progressCount = 0
    /// What the progress messages say is being waited for, and how long at most (ms), when known.
    var progressMessage = "working"
    var progressTotalMs: Double?
    private(set) var ended = false
    /// What ending the call must also stop (a child it started), run once when it ends.
    private var endActions: [() -> Void] = []

    init(id: RPCID, server: MCPServer, progressToken: JSONValue?) {
        self.id = id
        self.server = server
        self.progressToken = progressToken
    }

    /// Opens a session with the broker (a controller's, or an observer's whose notifications go to `onRequest`) and
    /// hands its peer to `body`; an unreachable broker ends the call with a tool error.
    func withBroker(
        maxLineLength: Int? = nil, role: PeerRole = .controller,
        onRequest: ((RPCRequest, RPCResponder) -> Void)? = nil, _ body: @escaping (RPCPeer) -> Void
    ) {
        let hello = HelloParams(role: role, protocolVersion: ProtocolVersion.current, clientName: "lifebus-mcp")
        BrokerSession.open(
            path: server.socketPath, hello: hello, loop: server.loop, onRequest: onRequest
        ) { [self] opened in
            switch opened {
            case .success(let (peer, _)) where ended:
                peer.close()
            case .success(let (peer, _)):
                self.peer = peer
                if let maxLineLength { peer.connection.maxLineLength = maxLineLength }
                body(peer)
            case .failure(let failure):
                let error: RPCError = switch failure {
                case .refused(let refusal): refusal
                case .unreachable, .untrusted: RPCError(.connectionClosed, "\(failure)")
                }
                finish(ToolResult.failure(
                    error, hint: "Is lifebusd running? Start `lifebus mcp --start-broker`, or pass --socket."
                ))
            }
        }
    }

    /// Sends `method` to the broker and ends the call with `success(value)` or with the broker's error.
    func ask(_ method: String, _ params: JSONValue, maxLineLength: Int? = nil,
             success: @escaping (JSONValue) -> JSONValue) {
        withBroker(maxLineLength: maxLineLength) { [self] peer in
            peer.request(method, params: params) { [self] answer in
                switch answer {
                case .success(let value): finish(success(value))
                case .failure(let error): finish(ToolResult.failure(error))
                }
            }
        }
    }

    /// Starts reporting progress, if the caller asked for it with a `progressToken`.
    func startProgress() {
        guard progressToken != nil, progressTimer == nil else { return }
        reportProgress()
        do throws(UVError) {
            let timer = try LoopTimer(loop: server.loop)
            timer.start(after: Self.progressInterval, repeating: Self.progressInterval) { [unowned self] in
                self.reportProgress()
            }
            progressTimer = timer
        } catch {
            // Progress is a courtesy: without a timer the call still completes.
        }
    }

    /// `notifications/progress`: the time spent so far (ms) against the most it may take, when known.
    private func reportProgress() {
        guard let progressToken, !ended else { return }
        let elapsedMs = Double(EventLoop.monotonicNanoseconds() - startedNanoseconds) / 1_000_000
        progressCount += 1
        var params: JSONObject = [
            "progressToken": progressToken, "progress": .double(max(elapsedMs, Double(progressCount) * 0.001)),
        ]
        if let progressTotalMs { params.append("total", .double(progressTotalMs)) }
        params.append("message", .string("\(progressMessage) (\(Int(elapsedMs)) ms)"))
        server.notify("notifications/progress", params: .object(params))
    }

    /// Answers the call with `result` (unless it was cancelled) and ends it.
    func finish(_ result: JSONValue) {
        guard !ended else { return }
        server.respond(id, .success(result))
        end()
    }

    /// Ends the call without answering: the client cancelled it, or went away.
    func cancel() {
        end()
    }

    /// Runs `action` when the call ends, however it ends (answered, cancelled, the client gone).
    func onEnd(_ action: @escaping () -> Void) {
        endActions.append(action)
    }

    private func end() {
        guard !ended else { return }
        ended = true
        let actions = endActions
        endActions = []
        actions.forEach { $0() }
        progressTimer?.close()
        progressTimer = nil
        peer?.close()
        peer = nil
        server.ended(self)
    }
}
