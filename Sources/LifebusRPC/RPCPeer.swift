public import LifebusIO
public import LifebusJSON
public import LifebusProtocol

/// One end of a JSON-RPC 2.0 conversation over one `Connection`, used alike by the broker, the CLI and the SDK.
///
/// Owns the connection, the table of requests it sent that still await an answer, and the numbering of its ids.
/// Decodes each inbound line, answers malformed ones itself (`-32700`/`-32600`), hands requests and notifications to
/// `onRequest`, and completes its own requests when their responses arrive. A batch is answered with one array once
/// every request in it has been answered (and not at all if it held only notifications).
///
/// Inbound backpressure: while `unansweredRequests` (requests received, batch elements included, and not answered
/// yet) is at `maxUnansweredRequests`, reading is paused; it resumes when half of them are answered.
///
/// Bound to the loop of its connection: every method must be called on that loop's thread.
/// Invariants: each sent request's handler is called exactly once — with the response, or with an error when the
/// connection ends first; `onEnd` is called exactly once.
public final class RPCPeer {
    public typealias ResponseHandler = (Result<JSONValue, RPCError>) -> Void
    /// Receives the answer to a callback request (see `request(_:writingParams:answerTag:)`): the request's tag and
    /// the answer read as a `CallbackAnswer`.
    public typealias CallbackAnswerHandler = (UInt64, Result<CallbackAnswer, RPCError>) -> Void

    public let connection: Connection
    /// What the peer reads per line (see `HotFields`).
    // Unchecked: touched only on the loop thread, and no access to it spans a call (each field is read or replaced
    // whole, a handler copied out before it is called; the pending answers change only through pure value code).
    @exclusivity(unchecked) private var hot = HotFields()

    /// Receives every inbound request and notification with the responder that answers it.
    public var onRequest: ((RPCRequest, RPCResponder) -> Void)? {
        get { hot.onRequest }
        set { hot.onRequest = newValue }
    }
    /// Called once, when the connection has ended for any reason.
    public var onEnd: ((ConnectionEnd) -> Void)?
    /// Receives the answer to every callback request, with the tag it was sent with: one handler for the peer, set
    /// before the first such request, rather than a closure per request (a closure that captures anything is an
    /// allocation, and the broker sends a callback per app per event).
    public var onCallbackAnswer: CallbackAnswerHandler? {
        get { hot.onCallbackAnswer }
        set { hot.onCallbackAnswer = newValue }
    }
    /// Looks at each inbound line before it is decoded: `false` drops the line unanswered and closes the connection
    /// at once (the broker refuses a TCP peer that speaks HTTP this way).
    public var screen: ((UnsafeRawBufferPointer) -> Bool)? {
        get { hot.screen }
        set { hot.screen = newValue }
    }
    /// What the decoder knows of the methods this peer serves (`RPCCodec.decode(line:decoding:)`); `nil` (the
    /// default): none.
    public var decoding: (any RPCDecoding.Type)? {
        get { hot.decoding }
        set { hot.decoding = newValue }
    }

    /// The most inbound requests left unanswered before reading pauses (unlimited by default).
    public var maxUnansweredRequests: Int {
        get { hot.maxUnansweredRequests }
        set { hot.maxUnansweredRequests = newValue }
    }
    /// Inbound requests (not notifications) not answered yet.
    public var unansweredRequests: Int { hot.unansweredRequests }

    public init(connection: Connection) {
        self.connection = connection
    }

    /// Sets `onCallbackAnswer` to what `handler` makes unless it is set already. (From another module, reading the
    /// property is a call that copies the handler out: one call per callback request here costs less.)
    public func answerCallbacks(with handler: () -> CallbackAnswerHandler) {
        if hot.onCallbackAnswer == nil { hot.onCallbackAnswer = handler() }
    }

    /// Starts reading lines from the connection. The connection keeps the peer alive until it has ended (it drops
    /// these handlers after `onEnd`), so a peer nobody else holds still sees its end.
    public func start() {
        connection.startReading(
            onLine: { line in self.received(line: line) },
            onEnd: { end in self.connectionEnded(end) }
        )
    }

    /// Sends a request; `handler` runs once, with the answer or with the error that ended the connection.
    @discardableResult
    public func request(_ method: String, params: JSONValue? = nil, _ handler: @escaping ResponseHandler) -> RPCID {
        let id = RPCID.number(hot.nextRequestNumber)
        guard expectResponse(.value(handler)) else { return id }
        send(.request(RPCRequest(id: id, method: method, params: params)))
        return id
    }

    /// Sends a callback request whose whole text `writeRequest` appends given its id (no `JSONValue` tree: the
    /// broker's callback requests, one per app per event); `onCallbackAnswer` gets `tag` and the answer as a
    /// `CallbackAnswer`, read from the line's text when written as the SDK writes it (no tree either), leniently
    /// from the parsed result otherwise. `onCallbackAnswer` must be set.
    public func request(writingRequest writeRequest: (RPCID, inout [UInt8]) -> Void, answerTag tag: UInt64) {
        precondition(hot.onCallbackAnswer != nil, "RPCPeer: a callback request sent before onCallbackAnswer was set")
        let id = RPCID.number(hot.nextRequestNumber)
        guard expectResponse(.callbackAnswer(tag)), !connection.isClosed else { return }
        writeLine { writeRequest(id, &$0) }
    }

    /// Takes the next request number and keeps `handler` for its answer; `false`, the handler told, once the
    /// connection has ended.
    private func expectResponse(_ handler: PendingResponses.Handler) -> Bool {
        let number = hot.nextRequestNumber
        hot.nextRequestNumber += 1
        guard !hot.ended else {
            complete(handler, with: .failure(Self.connectionClosedError))
            return false
        }
        hot.pendingResponses.add(number, handler)
        return true
    }

    /// Sends a notification (a request without an id: nothing answers it).
    public func notify(_ method: String, params: JSONValue? = nil) {
        send(.request(RPCRequest(id: nil, method: method, params: params)))
    }

    /// Writes one message as one line.
    public func send(_ message: RPCMessage) {
        guard !hot.ended, !connection.isClosed else { return }
        writeLine { RPCCodec.encode(message, to: &$0) }
    }

    /// Writes the response to request `id` (no message built for it).
    func sendResponse(id: RPCID?, _ result: Result<JSONValue, RPCError>) {
        guard !hot.ended, !connection.isClosed else { return }
        writeLine { RPCCodec.encodeResponse(id: id, result: result, to: &$0) }
    }

    /// Writes a success response whose result `writeResult` appends as JSON text.
    func sendSuccess(id: RPCID?, writingResult writeResult: (inout [UInt8]) -> Void) {
        guard !hot.ended, !connection.isClosed else { return }
        writeLine { RPCCodec.encodeSuccess(id: id, to: &$0, writingResult: writeResult) }
    }

    /// Writes a success response whose result is `writeHead`'s text, then `body`, then `writeTail`'s text; `body`
    /// goes to the kernel from where it is (gathered with the rest by one `writev`, and held by a queued write for
    /// what the kernel did not take), never copied into the line.
    func sendSuccess(
        id: RPCID?, writingHead writeHead: (inout [UInt8]) -> Void, splicing body: [UInt8],
        writingTail writeTail: (inout [UInt8]) -> Void
    ) {
        guard !hot.ended, !connection.isClosed else { return }
        connection.writeLine(encoding: { line in
            var offset = 0
            RPCCodec.encodeSuccess(id: id, to: &line) { buffer in
                writeHead(&buffer)
                offset = buffer.count
                writeTail(&buffer)
            }
            return offset
        }, splicing: body)
    }

    /// Writes a batch of messages as one line.
    func sendBatch(_ messages: [RPCMessage]) {
        guard !hot.ended, !connection.isClosed else { return }
        writeLine { RPCCodec.encodeBatch(messages, to: &$0) }
    }

    /// Encodes one line into the loop's line buffer and writes it.
    private func writeLine(_ encode: (inout [UInt8]) -> Void) {
        connection.writeLine(encoding: encode)
    }

    /// Closes the connection at once.
    public func close() {
        connection.close()
    }

    /// Writes what is queued, then closes.
    public func closeAfterFlush() {
        connection.closeAfterFlush()
    }

    static let connectionClosedError = RPCError(.connectionClosed, "the connection closed before the answer came")

    /// A flag no responder holds: the spare, reset, when only this peer holds it; a new one (the next spare) otherwise.
    private func takeAnsweredFlag() -> AnsweredFlag {
        if isKnownUniquelyReferenced(&hot.spareAnsweredFlag) {
            hot.spareAnsweredFlag.isSet = false
        } else {
            hot.spareAnsweredFlag = AnsweredFlag()
        }
        return hot.spareAnsweredFlag
    }

    /// An inbound request was taken in; pauses reading at the limit.
    private func requestReceived() {
        hot.unansweredRequests += 1
        if hot.unansweredRequests >= hot.maxUnansweredRequests, !hot.pausedForAnswers {
            hot.pausedForAnswers = true
            connection.pauseReading()
        }
    }

    /// An inbound request was answered (its response written or added to its batch).
    func requestAnswered() {
        hot.unansweredRequests -= 1
        if hot.pausedForAnswers, hot.unansweredRequests <= hot.maxUnansweredRequests / 2 {
            hot.pausedForAnswers = false
            connection.resumeReading()
        }
    }
}

extension RPCPeer {
    private func received(line: UnsafeRawBufferPointer) {
        if let screen = hot.screen, !screen(line) {
            close()
            return
        }
        // A callback's answer is an object: its line ends in `}}` (a one-byte test spares the other lines, `ping`'s
        // among them, the envelope's).
        if line.count >= 2, line[line.count - 2] == UInt8(ascii: "}"), let answer = RPCCodec.canonicalAnswer(line),
            hot.pendingResponses.nextAwaitsCallbackAnswer(answer.id),
            let read = CallbackAnswer(canonicalText: answer.result),
            case .callbackAnswer(let tag)? = hot.pendingResponses.remove(.number(answer.id))
        {
            hot.onCallbackAnswer?(tag, .success(read))  // a callback's answer read from its text: no tree
            return
        }
        switch RPCCodec.decode(line: line, decoding: hot.decoding) {
        case .message(let message):
            dispatch(message, batch: nil)
        case .invalid(let error, let id):
            send(.response(RPCResponse(id: id, result: .failure(error))))
        case .batch(let elements):
            let collector = RPCBatchCollector(peer: self)
            for element in elements {
                switch element {
                case .success(let message):
                    dispatch(message, batch: collector)
                case .failure(let error):
                    collector.add(RPCResponse(id: nil, result: .failure(error)))
                }
            }
            collector.sealed()
        }
    }

    private func dispatch(_ message: consuming RPCMessage, batch: RPCBatchCollector?) {
        switch consume message {
        case .request(let request):
            let responder: RPCResponder
            if request.id == nil {
                responder = RPCResponder(target: .none)
            } else if let batch {
                requestReceived()
                responder = RPCResponder(target: .batch(batch.expectAnswer(), request.id))
            } else {
                requestReceived()
                responder = RPCResponder(target: .peer(self, request.id), answered: takeAnsweredFlag())
            }
            if let onRequest = hot.onRequest {
                onRequest(request, responder)
            } else {
                responder.fail(.methodNotFound(request.method))
            }
        case .response(let response):
            guard let id = response.id, let handler = hot.pendingResponses.remove(id) else {
                return  // an answer to nothing we asked: dropped, as JSON-RPC gives no way to reply to a response
            }
            complete(handler, with: response.result)
        }
    }

    private func connectionEnded(_ end: ConnectionEnd) {
        guard !hot.ended else { return }
        switch end {
        case .lineTooLong(let limit):
            // Reading has stopped; say why before the connection goes.
            send(.response(RPCResponse(
                id: nil,
                result: .failure(RPCError(
                    .lineTooLong, "a line exceeded \(limit) bytes; closing", data: ["limit": .integer(Int64(limit))]
                ))
            )))
            connection.closeAfterFlush()
        case .endOfStream:
            // The peer stopped sending; what was already answered still goes out, then the connection closes.
            connection.closeAfterFlush()
        case .error, .closedLocally, .outputLimitExceeded, .writeStalled:
            break
        }
        hot.ended = true
        let waiting = hot.pendingResponses.removeAll()
        // A line over this side's limit is this side's refusal, not the other end closing: say so.
        var failure = Self.connectionClosedError
        if case .lineTooLong(let limit) = end {
            failure = RPCError(.lineTooLong, "a line received was longer than this side accepts (\(limit) bytes)",
                               data: ["limit": .integer(Int64(limit))])
        }
        for handler in waiting {
            complete(handler, with: .failure(failure))
        }
        onEnd?(end)
        hot.onRequest = nil
        onEnd = nil
        hot.onCallbackAnswer = nil
    }
}

extension RPCPeer {
    /// Gives `handler` its answer: as it is, or read as a `CallbackAnswer` (leniently) for a callback's.
    fileprivate func complete(_ handler: PendingResponses.Handler, with result: Result<JSONValue, RPCError>) {
        switch handler {
        case .value(let handler): handler(result)
        case .callbackAnswer(let tag): hot.onCallbackAnswer?(tag, result.map(CallbackAnswer.init(readingLeniently:)))
        }
    }
}
