import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC
import Testing

/// A `fire` answer sent as head, records' text and tail (`RPCResponder.succeed(writingHead:splicing:writingTail:)`)
/// reads back as the same result on a real socket, spliced (large) or copied (small) alike.
@Suite struct RPCSplicedAnswerTests {
    static func result(records count: Int) -> (FireResult, WrittenFireResult) {
        let records = (1...count).map { seq in
            TransitionRecord(seq: Int64(seq), app: "com.example.app\(seq)", pid: Int32(seq),
                             callback: .didEnterBackground, cause: EventCause(eventID: 7, event: "home"),
                             from: .inactive, to: .background,
                             firedMs: 1.5, sentMs: 2.25, answeredMs: 3.125, handlerMs: nil, budgetMs: 5000,
                             outcome: .ok, wallMs: 1_763_780_000_000)
        }
        var text: [UInt8] = []
        for record in records {
            if !text.isEmpty { text.append(UInt8(ascii: ",")) }
            record.write(to: &text)
        }
        return (FireResult(eventID: 7, event: "home", completed: true, transitions: records),
                WrittenFireResult(eventID: 7, event: "home", completed: true, transitionCount: count,
                                  transitionsText: text))
    }

    @Test(arguments: [1, 200])
    func aSplicedAnswerReadsBackAsTheResult(records: Int) throws {
        let (expected, written) = Self.result(records: records)
        let path = "/tmp/lifebus-rpc-splice-\(getpid())-\(records).sock"
        unlink(path)
        defer { unlink(path) }
        let loop = try EventLoop()
        var server: RPCPeer?
        let listener = try Listener.listen(on: .unix(path), loop: loop) { connection in
            let peer = RPCPeer(connection: connection)
            peer.onRequest = { _, responder in
                responder.succeed(writingHead: written.writeHead, splicing: written.transitionsText,
                                  writingTail: written.writeTail)
            }
            peer.start()
            server = peer
        }
        var answer: Result<JSONValue, RPCError>?
        var client: RPCPeer?
        Connection.connect(to: .unix(path), loop: loop) { connected in
            guard case .success(let connection) = connected else { return }
            connection.maxLineLength = 1 << 20
            let peer = RPCPeer(connection: connection)
            peer.start()
            peer.request("fire") { result in
                answer = result
                peer.close()
                server?.close()
                listener.close()
            }
            client = peer
        }
        loop.run()
        try loop.close()
        #expect(client != nil)
        let value = try #require(try answer?.get())
        #expect(try FireResult(json: value) == expected)
        #expect(written.transitionsText.count >= 16 * 1024 || records == 1)
    }
}
