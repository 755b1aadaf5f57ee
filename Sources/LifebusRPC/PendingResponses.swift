import LifebusProtocol

/// The handlers of the requests one peer sent that still await their answers, by request number.
///
/// A peer numbers its requests 1, 2, 3… and answers mostly come back in that order, so the handlers wait in sending
/// order: an answer looks at the oldest first (no hashing: the table a dictionary would need costs ~1,000
/// instructions per request in the broker's fan-out) and searches on only when it overtakes an earlier one.
/// A value owned by its `RPCPeer`. Invariants: numbers increase along `entries[start...]`; an answered entry
/// before `start` holds no handler; `entries` holds the waiting handlers plus at most as many answered slots
/// again (and 16), compacted as `start` advances.
struct PendingResponses {
    /// What waits for one answer: a handler of the parsed result, or the tag of a callback request (its answer,
    /// read as a `CallbackAnswer`, goes to the peer's `onCallbackAnswer`).
    enum Handler {
        case value(RPCPeer.ResponseHandler)
        case callbackAnswer(UInt64)
    }

    /// A struct rather than a tuple: a closure stored in a generic container's element is re-abstracted through an
    /// allocated thunk, one in a struct's field is not.
    private struct Entry {
        let number: Int64
        /// Whether `handler` is a `.callbackAnswer` (asked without looking into the enum).
        let awaitsCallbackAnswer: Bool
        var handler: Handler?
    }

    private var entries: [Entry] = []
    private var start = 0

    /// Whether no request awaits its answer.
    var isEmpty: Bool { start == entries.count }

    /// Keeps `handler` for the answer to request `number`, larger than every number added before.
    mutating func add(_ number: Int64, _ handler: Handler) {
        let awaitsCallbackAnswer = if case .callbackAnswer = handler { true } else { false }
        let entry = Entry(number: number, awaitsCallbackAnswer: awaitsCallbackAnswer, handler: handler)
        if start == entries.count, start > 0 {
            // Everything answered (a broker's app peer has one callback out at a time): start over at the front.
            entries[0] = entry
            if entries.count > 1 { entries.removeSubrange(1...) }
            start = 0
            return
        }
        if start >= 16, start * 2 >= entries.count {  // amortized: once per 16 answers at least
            entries.removeFirst(start)
            start = 0
        }
        entries.append(entry)
    }

    /// Whether the oldest request waiting is number `number` and waits for a callback's answer (the fast path's
    /// check: answers come in order, so a later one is left to the general path).
    func nextAwaitsCallbackAnswer(_ number: Int64) -> Bool {
        start < entries.count && entries[start].number == number && entries[start].awaitsCallbackAnswer
            && entries[start].handler != nil
    }

    /// Takes the handler waiting for the answer with `id`; `nil` when no request of this peer has that id (a
    /// string id, an answer already taken, a number never sent).
    mutating func remove(_ id: RPCID) -> Handler? {
        guard case .number(let number) = id, start < entries.count else { return nil }
        if entries[start].number == number {
            start += 1
            return entries[start - 1].handler.take()  // moved out: no copy to retain, no release of the slot
        }
        guard let index = entries[(start + 1)...].firstIndex(where: { $0.number == number }) else { return nil }
        return entries.remove(at: index).handler
    }

    /// Takes every waiting handler, oldest first.
    mutating func removeAll() -> [Handler] {
        let waiting = entries[start...].compactMap(\.handler)
        entries = []
        start = 0
        return waiting
    }
}
