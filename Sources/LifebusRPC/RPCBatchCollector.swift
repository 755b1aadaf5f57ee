import LifebusProtocol

/// Gathers the responses to one inbound batch and writes them as one array when the last one is in.
///
/// Owns the responses given so far, their encoded size and the count still owed. Bound to its peer's loop. A batch of
/// notifications only is answered with nothing, as JSON-RPC 2.0 requires. Invariant: the array written is at most
/// `maxAnswerBytes` plus one `lifebus.LimitExceeded` per element: a response that would pass the cap is replaced by
/// that error (same id, `data.limit` `batchAnswerBytes`), so a batch cannot amplify itself past the line limit.
final class RPCBatchCollector {
    /// The most bytes of responses one batch's answer carries (the CLI's and SDK's own line limit).
    static let maxAnswerBytes = 1024 * 1024

    /// A place in the batch's answer, filled once.
    struct Slot {
        let collector: RPCBatchCollector
        func fill(_ response: RPCResponse) { collector.add(response, owed: true) }
    }

    /// Strong, as a lone request's responder holds its peer: an answer may come after the connection ended (a `fire`
    /// that completes later), and the peer then drops it.
    let peer: RPCPeer
    private var responses: [RPCMessage] = []
    private var answerBytes = 0
    private var owed = 0
    private var isSealed = false

    init(peer: RPCPeer) {
        self.peer = peer
    }

    /// Reserves a place for a request that will be answered later.
    func expectAnswer() -> Slot {
        owed += 1
        return Slot(collector: self)
    }

    /// Adds a response the batch owes no slot for (an invalid element).
    func add(_ response: RPCResponse) {
        add(response, owed: false)
    }

    /// Marks the end of the batch's elements; answers now if nothing is owed.
    func sealed() {
        isSealed = true
        flushIfComplete()
    }

    fileprivate func add(_ response: RPCResponse, owed wasOwed: Bool) {
        if wasOwed { owed -= 1 }
        var message = RPCMessage.response(response)
        var size = RPCCodec.encode(message).count + 1
        if answerBytes + size > Self.maxAnswerBytes {
            message = .response(RPCResponse(id: response.id, result: .failure(.limitExceeded(
                "batchAnswerBytes", maximum: Self.maxAnswerBytes, "the batch's answer would be too long"))))
            size = 0
        }
        answerBytes += size
        responses.append(message)
        flushIfComplete()
    }

    private func flushIfComplete() {
        guard isSealed, owed == 0, !responses.isEmpty else { return }
        let complete = responses
        responses.removeAll()
        peer.sendBatch(complete)
    }
}
