import Glibc
public import LifebusIO
import LifebusJSON
import LifebusProtocol

/// `lifebus mcp`: a Model Context Protocol server on standard input and output that drives the Lifebus broker,
/// so a coding agent can fire interruptions, wait for states and read the journal.
///
/// Owns the loop it runs on, the stdio channel, the tool calls in flight (keyed by request id) and a keep-alive
/// timer that holds the loop open while the client's input is open (tool calls open their own broker connections
/// and come and go). Bound to the loop's thread. Lifecycle: `initialize` (version negotiation), then
/// `notifications/initialized`; `ping` at any time; `tools/list` and `tools/call` once initialized;
/// `notifications/cancelled` ends the call it names without an answer. The server stops when its input ends, or on
/// SIGINT or SIGTERM: calls still in flight are cancelled. Bounds: one message ≤ 4 MiB; at most `maxCallsInFlight`
/// calls at once (each holds one broker connection and, with a progress token, one timer); lines wait in the loop's
/// executor queue only until the loop reaches them, and each is answered or refused at once.
public final class MCPServer {
    /// More concurrent calls than this are refused with a JSON-RPC error (each holds a broker connection).
    static let maxCallsInFlight = 64

    let loop: EventLoop
    let socketPath: String
    private let channel: StdioChannel
    private var keepAlive: LoopTimer?
    private var stopSignals: [SignalWatcher] = []
    private var calls: [RPCID: ToolCall] = [:]
    var initializeAnswered = false

    /// Serves MCP on standard input/output against the broker at `socketPath` until the input ends.
    public static func serve(socketPath: String) throws(UVError) {
        signal(SIGPIPE, SIG_IGN)  // a client or broker gone mid-write is an error to handle, not a death
        let loop = try EventLoop()
        let server = try MCPServer(loop: loop, socketPath: socketPath)
        server.start()
        loop.run()
        try loop.close()
    }

    init(loop: EventLoop, socketPath: String) throws(UVError) {
        self.loop = loop
        self.socketPath = socketPath
        self.channel = StdioChannel(loop: loop)
        keepAlive = try LoopTimer(loop: loop)
        for number in [SIGINT, SIGTERM] {
            stopSignals.append(try SignalWatcher(loop: loop, signal: number) { [unowned self] _ in self.inputEnded() })
        }
    }

    private func start() {
        // A timer that never needs to fire: an active handle is what keeps a libuv loop running.
        keepAlive?.start(after: .seconds(3_600), repeating: .seconds(3_600)) {}
        channel.start(StdioChannel.Handlers(
            onLine: { [unowned self] line in self.received(line) },
            onTooLong: { [unowned self] in
                self.channel.send(.response(RPCResponse(id: nil, result: .failure(.invalidRequest(
                    "a message exceeded \(StdioChannel.maxLineLength) bytes and was dropped"
                )))))
            },
            onEnd: { [unowned self] in self.inputEnded() }
        ))
    }

    /// Stops serving: the input ended or a stop signal came. The loop then runs out of handles and `serve` returns.
    private func inputEnded() {
        for call in Array(calls.values) { call.cancel() }
        keepAlive?.close()
        keepAlive = nil
        for watcher in stopSignals { watcher.close() }
        stopSignals = []
    }

    // MARK: What tool calls use

    func respond(_ id: RPCID, _ result: Result<JSONValue, RPCError>) {
        channel.send(.response(RPCResponse(id: id, result: result)))
    }

    func notify(_ method: String, params: JSONValue) {
        channel.send(.request(.notification(method, params: params)))
    }

    /// A call has answered or was cancelled: it no longer counts as in flight.
    func ended(_ call: ToolCall) {
        if calls[call.id] === call { calls[call.id] = nil }
    }

    func begin(_ call: ToolCall) -> Bool {
        guard calls.count < Self.maxCallsInFlight, calls[call.id] == nil else { return false }
        calls[call.id] = call
        return true
    }

    func cancel(_ id: RPCID) {
        calls[id]?.cancel()
    }

    func send(_ message: RPCMessage) {
        channel.send(message)
    }
}
