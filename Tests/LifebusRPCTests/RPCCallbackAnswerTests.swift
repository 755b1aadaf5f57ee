import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC
import Testing

/// A callback request's answer reaches the peer's `onCallbackAnswer`, with the request's tag, as a `CallbackAnswer`
/// on a real socket: read from the line's text when written as the SDK writes it, from the parsed result otherwise
/// (members reordered, an unreadable result), and as the error when the app answered with one.
@Suite struct RPCCallbackAnswerTests {
    /// What the app side answers to its n-th callback request.
    static let answers: [Result<JSONValue, RPCError>] = [
        .success(CallbackAnswer(handlerMs: 1.5).json),  // canonical: the fast path
        .success(["handlerFailed": true, "handlerMs": 2]),  // reordered: the general path
        .success(["handlerMs": "soon"]),  // unreadable: still an answer, without details
        .failure(RPCError(code: -32000, message: "the handler threw")),
        .success(CallbackAnswer(handlerMs: 0.25, handlerFailed: true).json),
    ]

    static let expected: [Result<CallbackAnswer, RPCError>] = [
        .success(CallbackAnswer(handlerMs: 1.5)), .success(CallbackAnswer(handlerMs: 2, handlerFailed: true)),
        .success(CallbackAnswer()), .failure(RPCError(code: -32000, message: "the handler threw")),
        .success(CallbackAnswer(handlerMs: 0.25, handlerFailed: true)),
    ]

    @Test func answersReachTheHandlerAsCallbackAnswers() throws {
        let path = "/tmp/lifebus-rpc-callback-\(getpid()).sock"
        unlink(path)
        defer { unlink(path) }
        let loop = try EventLoop()
        var received: [Result<CallbackAnswer, RPCError>] = []
        var tags: [UInt64] = []
        var broker: RPCPeer?
        var app: RPCPeer?
        let listener = try Listener.listen(on: .unix(path), loop: loop) { connection in
            let peer = RPCPeer(connection: connection)
            peer.start()
            broker = peer
            peer.onCallbackAnswer = { tag, answer in
                tags.append(tag)
                received.append(answer)
                guard received.count == Self.answers.count else { return }
                peer.close()
                app?.close()
            }
            for index in Self.answers.indices {
                peer.request(writingRequest: { id, line in
                    RPCCodec.encode(RPCRequest(id: id, method: "didEnterBackground", params: [:]), to: &line)
                }, answerTag: Self.tag(index))
            }
        }
        Connection.connect(to: .unix(path), loop: loop) { connected in
            guard case .success(let connection) = connected else { return }
            let peer = RPCPeer(connection: connection)
            var count = 0
            peer.onRequest = { _, responder in
                responder.answer(Self.answers[count])
                count += 1
            }
            peer.onEnd = { _ in listener.close() }
            peer.start()
            app = peer
        }
        loop.run()
        try loop.close()
        #expect(broker != nil)
        #expect(received == Self.expected)
        #expect(tags == Self.answers.indices.map(Self.tag))
    }

    /// The tag of the n-th request: any number, given back with its answer.
    static func tag(_ index: Int) -> UInt64 {
        UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1 << 63
    }
}
