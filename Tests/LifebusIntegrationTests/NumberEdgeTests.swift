import Glibc
import LifebusJSON
import LifebusProtocol
import Testing

/// Numbers at the edges, sent by real peers to a real broker: each is answered (a result or -32602), and the broker
/// stays up for everyone. Before the fix, `timeoutMs` ≥ 9.3e12 and `handlerMs` 1e13 trapped the broker.
@Suite struct NumberEdgeTests {
    static let edges = [
        "0", "-0", "0.5", "9.3e12", "1e13", "1e308", "9007199254740992", "9223372036854775807",
        "9223372036854775808", "-1", "-9223372036854775808", "86400000", "86400000.5",
    ]

    @Test(arguments: edges)
    func waitTimeoutAtTheEdgeIsAnsweredAndTheBrokerStaysUp(number: String) throws {
        let broker = try BrokerFixture()
        let controller = try RawPeer.controller(broker)
        let answer = controller.call(
            "wait", #"{"app":"com.example.edge","state":"active","timeoutMs":\#(number)}"#, timeout: .seconds(5))
        let value = try #require(JSONParser.parse(number).doubleValue)
        if value >= 0, value <= WaitParams.maxTimeoutMs, value < 5000 {
            #expect(errorName(answer?.jsonText) == "lifebus.TimedOut", "\(answer?.jsonText ?? "nothing")")
        } else if value < 0 || value > WaitParams.maxTimeoutMs {
            #expect(answer?["error"]?["code"]?.int64Value == -32602, "\(answer?.jsonText ?? "nothing")")
            #expect(answer?["error"]?["data"]?["field"]?.stringValue == "timeoutMs")
        }
        #expect(controller.call("ping")?["result"]?["pong"]?.boolValue == true, "the broker is still up")
        #expect(broker.process.isAlive)
    }

    @Test(arguments: ["1e13", "1e308", "9223372036854775808", "-1", "0.25", "-0", "\"soon\""])
    func aCallbackAnswerWithAnyHandlerTimeIsStillAnAnswer(number: String) throws {
        let broker = try BrokerFixture()
        let app = try broker.connect()
        app.hello(role: "app", extra: #","app":{"id":"com.example.edge"}"#)
        let controller = try RawPeer.controller(broker)
        // Answer every callback the launch sends with the edge number as the handler time.
        var answered = 0
        while answered < 2, let line = app.readLine(timeout: .seconds(10)), let message = parsed(line) {
            guard message["method"] != nil, let id = message["id"] else { continue }
            app.sendLine(#"{"jsonrpc":"2.0","id":\#(id.jsonText),"result":{"handlerMs":\#(number)}}"#)
            answered += 1
        }
        #expect(answered == 2, "didFinishLaunching and didBecomeActive were sent")
        let reached = controller.call("wait", #"{"app":"com.example.edge","state":"active","timeoutMs":5000}"#)
        #expect(reached?["result"]?["state"]?.stringValue == "active", "\(reached?.jsonText ?? "nothing")")
        #expect(controller.call("ping")?["result"]?["pong"]?.boolValue == true, "the broker is still up")
        #expect(broker.process.isAlive)
    }
}
