import Glibc
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC
import Testing

/// Each request is answered at most once, however many copies of its responder answer, and whether it is answered
/// at once or held while later requests are answered (the peer reuses the answered-once flag of a responder that is
/// gone, never of one still held): on a real socket, the client gets exactly one response per request.
@Suite struct RPCResponderTests {
    /// The string a response carries, or "error".
    static func text(of result: Result<JSONValue, RPCError>) -> String {
        guard case .success(.string(let text)) = result else { return "error" }
        return text
    }

    @Test func eachRequestIsAnsweredOnceWhetherHeldOrAnsweredAtOnce() throws {
        let path = "/tmp/lifebus-rpc-responder-\(getpid()).sock"
        unlink(path)
        defer { unlink(path) }
        let loop = try EventLoop()
        var server: RPCPeer?
        var held: [RPCResponder] = []
        let listener = try Listener.listen(on: .unix(path), loop: loop) { connection in
            let peer = RPCPeer(connection: connection)
            peer.onRequest = { request, responder in
                switch request.method {
                case "hold":
                    held.append(responder)
                case "twice":
                    let copy = responder
                    responder.succeed(.string("first"))
                    copy.succeed(.string("second"))  // ignored: the request is answered
                    for earlier in held {  // the held ones are still unanswered: their flag was not reused
                        earlier.succeed(.string("held"))
                        earlier.succeed(.string("again"))  // ignored
                    }
                    held.removeAll()
                default:
                    responder.succeed(.string(request.method))
                }
            }
            peer.start()
            server = peer
        }
        var answers: [String] = []
        var client: RPCPeer?
        // A response that never comes must fail the test, not hang it.
        let deadline = try LoopTimer(loop: loop)
        deadline.start(after: .seconds(10)) {
            client?.close()
            server?.close()
            listener.close()
            deadline.close()
        }
        Connection.connect(to: .unix(path), loop: loop) { connected in
            guard case .success(let connection) = connected else { return }
            let peer = RPCPeer(connection: connection)
            peer.start()
            let methods = ["hold", "a", "b", "hold", "c", "twice", "d"]
            for method in methods {
                _ = peer.request(method) { result in
                    answers.append(Self.text(of: result))
                    guard answers.count == methods.count else { return }
                    // One more round trip: an answer given twice would arrive before this one.
                    _ = peer.request("last") { result in
                        answers.append(Self.text(of: result))
                        peer.close()
                        server?.close()
                        listener.close()
                        deadline.close()
                    }
                }
            }
            client = peer
        }
        loop.run()
        try loop.close()
        #expect(client != nil)
        #expect(answers == ["a", "b", "c", "first", "held", "held", "d", "last"])
        #expect(server?.unansweredRequests == 0)
    }
}
