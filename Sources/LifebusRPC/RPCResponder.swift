public import LifebusJSON
public import LifebusProtocol

/// The one way to answer an inbound request: write its response on the connection it came from, or into the batch
/// it came in. Answering a notification does nothing (JSON-RPC sends no response to one).
///
/// Bound to the loop of the peer it answers. Invariant: a request is answered at most once — later answers are ignored.
public struct RPCResponder {
    enum Target {
        case none
        case peer(RPCPeer, RPCID?)
        case batch(RPCBatchCollector.Slot, RPCID?)
    }

    let target: Target
    private let answered: AnsweredFlag

    /// `answered` must be a flag no other responder holds (a new one, or one whose responders are all gone).
    init(target: Target, answered: AnsweredFlag = AnsweredFlag()) {
        self.target = target
        self.answered = answered
    }

    /// Whether the request expects an answer (it is not a notification).
    public var expectsAnswer: Bool {
        if case .none = target { return false }
        return true
    }

    /// Answers with a result or an error.
    public func answer(_ result: Result<JSONValue, RPCError>) {
        guard !answered.isSet else { return }
        answered.isSet = true
        switch target {
        case .none:
            break
        case .peer(let peer, let id):
            peer.sendResponse(id: id, result)
            peer.requestAnswered()
        case .batch(let slot, let id):
            slot.fill(RPCResponse(id: id, result: result))
            slot.collector.peer.requestAnswered()
        }
    }

    /// Answers with a result.
    public func succeed(_ value: JSONValue) { answer(.success(value)) }

    /// Answers with a result that `writeResult` appends as JSON text itself (for large results with a direct
    /// writer: no `JSONValue` tree is built on the way).
    public func succeed(writing writeResult: (inout [UInt8]) -> Void) {
        guard !answered.isSet else { return }
        switch target {
        case .none:
            answered.isSet = true
        case .peer(let peer, let id):
            answered.isSet = true
            peer.sendSuccess(id: id, writingResult: writeResult)
            peer.requestAnswered()
        case .batch:
            // Rare: a batch gathers values, so the text is read back into one.
            var text: [UInt8] = []
            writeResult(&text)
            answer((try? JSONParser.parse(text)).map { .success($0) } ?? .failure(.internalError("unreadable result")))
        }
    }

    /// Answers with a result whose text is `writeHead`'s, then `body`, then `writeTail`'s (a `fire` answer: its
    /// records' text, made for the journal, goes out from where it is when it is large; a small one is copied,
    /// which costs less than gathering).
    public func succeed(
        writingHead writeHead: (inout [UInt8]) -> Void, splicing body: [UInt8],
        writingTail writeTail: (inout [UInt8]) -> Void
    ) {
        // The size first: a small answer (most) binds no copy of the target before it is copied.
        guard body.count >= Self.minimumSplicedBytes, case .peer(let peer, let id) = target, !answered.isSet else {
            return succeed { text in
                writeHead(&text)
                text.append(contentsOf: body)
                writeTail(&text)
            }
        }
        answered.isSet = true
        peer.sendSuccess(id: id, writingHead: writeHead, splicing: body, writingTail: writeTail)
        peer.requestAnswered()
    }

    /// The smallest body `succeed(writingHead:splicing:writingTail:)` leaves where it is (~45 records).
    static let minimumSplicedBytes = 16 * 1024

    /// Answers with an error.
    public func fail(_ error: RPCError) { answer(.failure(error)) }
}

/// Shared by the copies of one responder so that only the first answer counts.
final class AnsweredFlag {
    // Unchecked: a flag read and written whole; no access spans a call.
    @exclusivity(unchecked) var isSet = false
}
