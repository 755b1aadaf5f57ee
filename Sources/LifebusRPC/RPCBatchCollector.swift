import LifebusProtocol

/// Gathers the responses to one inbound batch and writes them as one array when the last one is in.
///
/// Owns the responses given so far and the count still owed. Bound to its peer's loop. A batch of notifications only
/// is answered with nothing, as JSON-RPC 2.0 requires.
final class RPCBatchCollector {
    /// A place in the batch's answer, filled once.
    struct Slot {
        let collector: RPCBatchCollector
        func fill(_ response: RPCResponse) { collector.add(response, owed: true) }
    }

    /// Strong, as a lone request's responder holds its peer: an answer may come after the connection ended (a `fire`
    /// that completes later), and the peer then drops it.
    private let peer: RPCPeer
    private var responses: [RPCMessage] = []
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
        responses.append(.response(response))
        flushIfComplete()
    }

    private func flushIfComplete() {
        guard isSealed, owed == 0, !responses.isEmpty else { return }
        let complete = responses
        responses.removeAll()
        peer.sendBatch(complete)
    }
}
