import Glibc
import LifebusJSON
import Testing

/// The bounds on what one peer can make the broker keep or produce (Protocol/README.md §15): each is answered
/// `lifebus.LimitExceeded` naming the limit, and the broker keeps serving.
@Suite struct LimitTests {
    /// Expects `answer` to be `lifebus.LimitExceeded` naming `limit`.
    private func expectLimit(
        _ answer: JSONValue?, _ limit: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = answer?["error"]
        let shown = answer?.jsonText.prefix(300) ?? "nothing"
        #expect(error?["data"]?["name"]?.stringValue == "lifebus.LimitExceeded", "\(shown)",
                sourceLocation: sourceLocation)
        #expect(error?["code"]?.int64Value == -32012, sourceLocation: sourceLocation)
        #expect(error?["data"]?["limit"]?.stringValue == limit, sourceLocation: sourceLocation)
    }

    /// An app in the test process that makes `count` marks with `padding` bytes of data each.
    /// Marks from one app; the app stays connected while the caller holds the returned peer (its end would add a
    /// transition).
    @discardableResult
    private func marks(_ broker: BrokerFixture, count: Int, padding: Int, app id: String = "com.example.Marker")
        throws -> RawPeer
    {
        let (app, hello) = try RawPeer.app(broker, id: id)
        #expect(hello?["result"] != nil)
        let pad = String(repeating: "x", count: padding)
        for number in 1...count {
            #expect(app.call("mark", #"{"name":"m\#(number)","data":{"pad":"\#(pad)"}}"#)?["result"] != nil)
        }
        return app
    }

    @Test func aBatchOfMoreThan64IsRefusedAnd64IsServed() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        client.sendLine("[" + Array(repeating: ping, count: 64).joined(separator: ",") + "]")
        #expect(parsed(client.readLine())?.arrayValue?.count == 64)
        client.sendLine("[" + Array(repeating: ping, count: 65).joined(separator: ",") + "]")
        expectLimit(parsed(client.readLine()), "batchMessages")
    }

    @Test func aBatchOfHistoriesCannotAmplifyPastOneMebibyte() throws {
        let broker = try BrokerFixture()
        try marks(broker, count: 40, padding: 12 * 1024)
        let client = try broker.connect()
        client.hello()
        let history = #"{"jsonrpc":"2.0","id":1,"method":"history"}"#
        client.sendLine("[" + Array(repeating: history, count: 10).joined(separator: ",") + "]")
        let line = try #require(client.readLine())
        #expect(line.utf8.count <= 1024 * 1024 + 10 * 256, "the batch's answer is capped: \(line.utf8.count) bytes")
        let answers = try #require(parsed(line)?.arrayValue)
        #expect(answers.count == 10)
        #expect(answers.first?["result"] != nil)
        expectLimit(answers.last, "batchAnswerBytes")
    }

    @Test func historyComesInPagesBoundedInCountAndBytesAndTheCLIFollowsThem() throws {
        let broker = try BrokerFixture()
        let marker = try marks(broker, count: 100, padding: 12 * 1024)  // 1.2 MB: more than one line may carry
        defer { withExtendedLifetime(marker) {} }
        let controller = try RawPeer.controller(broker)
        let first = try #require(controller.call("history")?["result"])
        let firstEntries = try #require(first["entries"]?.arrayValue)
        #expect(first["more"]?.boolValue == true)
        #expect(firstEntries.count < 100 && firstEntries.count > 0, "a page holds at most 512 KiB")
        let before = try #require(firstEntries.first?["seq"]?.int64Value)
        let second = try #require(controller.call("history", #"{"beforeSeq":\#(before),"limit":3}"#)?["result"])
        let seqs = second["entries"]?.arrayValue?.map { $0["seq"]?.int64Value ?? 0 }
        #expect(seqs == [before - 3, before - 2, before - 1])
        expectInvalid(controller.call("history", #"{"limit":1001}"#), field: "limit")
        let everything = try broker.history()
        #expect(everything.last == firstEntries.last, "the first page ends with the newest entry")
        let marks = everything.filter { $0["type"]?.stringValue == "mark" }
        #expect(marks.map { $0["name"]?.stringValue ?? "" } == (1...100).map { "m\($0)" }, "the CLI reads every page")
        let last = try broker.cli(["history", "--limit", "5", "--json"])
        #expect(jsonLines(last.out) == Array(everything.suffix(5)))
    }

    @Test func aMarkWithTooMuchDataOrTooLongANameIsRefused() throws {
        let broker = try BrokerFixture()
        let (app, _) = try RawPeer.app(broker, id: "com.example.Marker")
        let big = String(repeating: "x", count: 16 * 1024)
        expectLimit(app.call("mark", #"{"name":"big","data":{"pad":"\#(big)"}}"#), "markDataBytes")
        expectLimit(app.call("mark", #"{"name":"\#(String(repeating: "n", count: 257))"}"#), "markNameBytes")
        let longest = String(repeating: "n", count: 256)
        #expect(app.call("mark", #"{"name":"\#(longest)","data":{"ok":1}}"#)?["result"] != nil)
    }

    @Test func theInMemoryWindowIsBoundedInBytesWhileTheJournalKeepsEveryMark() throws {
        let broker = try BrokerFixture()
        try marks(broker, count: 700, padding: 15 * 1024)  // ≈ 10.5 MB, past the 8 MiB window
        let held = try broker.marks(of: "com.example.Marker")
        #expect(held.count < 700 && held.count > 400, "the broker holds the newest \(held.count) marks")
        #expect(held.last?["name"]?.stringValue == "m700")
        let journal = String(decoding: try readBytes(broker.journalPath), as: UTF8.self)
        #expect(journal.split(separator: "\n").filter { $0.contains(#""type":"mark""#) }.count == 700)
    }

    @Test func waitsPerConnectionAreBounded() throws {
        // A pending wait is an unanswered request too: by default the broker stops reading at 64 of them (§15.1),
        // long before 256. With that raised, the waits' own cap is what answers.
        let broker = try BrokerFixture(arguments: ["--max-unanswered", "1000"])
        let controller = try RawPeer.controller(broker)
        let wait = #"{"app":"com.example.Never","state":"active","timeoutMs":600000}"#
        for number in 1...256 {
            controller.client.sendLine(#"{"jsonrpc":"2.0","id":\#(number),"method":"wait","params":\#(wait)}"#)
        }
        expectLimit(controller.call("wait", wait), "waitsPerConnection")
        let other = try RawPeer.controller(broker)
        #expect(errorName(other.call("wait", #"{"app":"com.example.Never","state":"active","timeoutMs":0}"#)?.jsonText)
            == "lifebus.TimedOut", "another connection has its own allowance")
    }

    @Test func backgroundTasksPerAppAreBounded() throws {
        let broker = try BrokerFixture()
        let (app, _) = try RawPeer.app(broker, id: "com.example.Tasks")
        for number in 1...32 {
            let answer = app.call("beginBackgroundTask", #"{"name":"t\#(number)"}"#)
            #expect(answer?["result"]?["taskID"] != nil, "\(answer?.jsonText ?? "nothing")")
        }
        expectLimit(app.call("beginBackgroundTask", "{}"), "backgroundTasksPerApp")
        #expect(app.call("endBackgroundTask", #"{"taskID":1}"#)?["result"] != nil)
        #expect(app.call("beginBackgroundTask", "{}")?["result"]?["taskID"] != nil, "ending one makes room")
    }

    @Test func firesInFlightPerControllerAreBounded() throws {
        let broker = try BrokerFixture(arguments: ["--time-scale", "20"])
        let app = try broker.subscribe("com.example.Slow", ["--delay", "willResignActive=600s"])
        defer {
            app.signal(SIGKILL)
            _ = app.wait()
        }
        #expect(try broker.reached("com.example.Slow", "active"))
        let controller = try RawPeer.controller(broker)
        // `home` waits on the app's slow willResignActive; the events after it queue behind it.
        for number in 1...64 {
            let answer = controller.call("fire", #"{"event":"\#(number == 1 ? "home" : "call")","wait":false}"#)
            #expect(answer?["result"] != nil, "fire \(number): \(answer?.jsonText ?? "nothing")")
        }
        expectLimit(controller.call("fire", #"{"event":"sms","wait":false}"#), "firesInFlightPerController")
        let other = try RawPeer.controller(broker)
        #expect(other.call("fire", #"{"event":"sms","wait":false}"#)?["result"] != nil, "another controller may fire")
    }

    private func expectInvalid(_ answer: JSONValue?, field: String) {
        #expect(answer?["error"]?["code"]?.int64Value == -32602, "\(answer?.jsonText ?? "nothing")")
        #expect(answer?["error"]?["data"]?["field"]?.stringValue == field)
    }
}

/// The CLI's side of a line limit: an answer longer than `lifebus` accepts is reported as that, not as the broker
/// closing the connection. A stand-in broker in the test process sends the oversized answer.
@Suite struct ClientLineLimitTests {
    @Test func anAnswerOverTheClientsLineLimitIsReportedAsSuch() throws {
        let path = BrokerFixture.uniqueSocketPath("fake")
        let listening = try boundSocket(at: path, listening: true)
        defer {
            close(listening)
            unlink(path)
        }
        let cli = try ChildProcess("lifebus", ["history", "--socket", path])
        let peer = RawClient(accepted: accept(listening, nil, nil))
        let hello = try #require(parsed(peer.readLine()))
        let result = #"{"brokerVersion":"0.1.0","protocolVersion":1,"role":"controller","#
            + #""peer":{"pid":0,"uid":0,"gid":0},"profile":"ios7"}"#
        peer.sendLine(#"{"jsonrpc":"2.0","id":\#(hello["id"]?.jsonText ?? "1"),"result":\#(result)}"#)
        let request = try #require(parsed(peer.readLine()))
        #expect(request["method"]?.stringValue == "history")
        let padding = String(repeating: " ", count: 1024 * 1024)
        peer.sendLine(#"{"jsonrpc":"2.0","id":\#(request["id"]?.jsonText ?? "2"),"result":{"entries":[]\#(padding)}}"#)
        let message = cli.stderr.readAll()
        #expect(cli.wait() == 3)
        #expect(message.contains("too long for this client"), "\(message)")
        #expect(!message.contains("the broker closed the connection"))
    }
}
