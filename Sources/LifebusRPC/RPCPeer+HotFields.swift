import LifebusProtocol

extension RPCPeer {
    /// The fields of a peer read per line: its handlers, what it knows of the methods it serves, the count of
    /// unanswered requests and the pause it causes, the numbering of its own requests, the table of answers it
    /// awaits, whether it has ended and the spare answered-once flag. Kept together so that one
    /// `@exclusivity(unchecked)` property (`RPCPeer.hot`) holds them, with one reason.
    ///
    /// A plain value owned by one peer, touched only on its loop's thread. Invariant (that reason): no access to it
    /// spans a call. Each field is read or replaced whole (a handler is copied out before it is called), and the
    /// pending answers change only through pure value code.
    struct HotFields {
        var onRequest: ((RPCRequest, RPCResponder) -> Void)?
        var onCallbackAnswer: CallbackAnswerHandler?
        var screen: ((UnsafeRawBufferPointer) -> Bool)?
        var decoding: (any RPCDecoding.Type)?
        var maxUnansweredRequests = Int.max
        /// Inbound requests (not notifications) not answered yet.
        var unansweredRequests = 0
        /// Reading is paused until half the unanswered requests are answered.
        var pausedForAnswers = false
        var nextRequestNumber: Int64 = 1
        var pendingResponses = PendingResponses()
        var ended = false
        /// The answered-once flag of the last responder made for this peer, reused for the next one once nothing
        /// else holds it (that responder and all its copies are gone): a request answered at once costs no
        /// allocation.
        var spareAnsweredFlag = AnsweredFlag()
    }
}
