import Glibc
import LifebusJSON
import Testing

/// Bad input over a real socket: each gets a clear error, and the other clients keep working.
@Suite struct BadInputTests {
    /// A second, well-behaved client that must be unaffected by whatever the first one did.
    private func expectBystanderStillServed(_ bystander: RawClient, id: Int = 99) {
        bystander.sendLine(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
        #expect(parsed(bystander.readLine())?["result"]?["pong"]?.boolValue == true, "the other client is unaffected")
    }

    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":1,"method":"ping""#, Int64(-32700)),   // truncated JSON
        (#"not json at all"#, -32700),
        (#"{"jsonrpc":"2.0","id":1,"result":2e22222}"#, -32700),       // non-finite number
        (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),        // wrong version
        (#"{"jsonrpc":"2.0","id":1}"#, -32600),                        // neither request nor response
        (#"42"#, -32600),                                               // valid JSON, not a request
        (#"[]"#, -32600),                                               // empty batch
        (#"{"jsonrpc":"2.0","id":1,"method":"launchTheMissiles"}"#, -32601),
        (#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"yes"}"#, -32600),
    ])
    func malformedLinesGetTheirErrorAndTheConnectionStays(line: String, expected: Int64) throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        let bystander = try broker.connect()
        client.hello()
        bystander.hello()
        client.sendLine(line)
        let answer = client.readLine()
        #expect(errorCode(answer) == expected, "answer was \(answer ?? "nothing")")
        if expected == -32700 {
            #expect(parsed(answer)?["id"] == .null, "a parse error answers with id null")
        }
        client.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(parsed(client.readLine())?["id"]?.int64Value == 2, "the connection keeps working")
        expectBystanderStillServed(bystander)
    }

    @Test(arguments: [true, false])
    func aOneMegabyteMethodNameGetsAShortAnswer(introduced: Bool) throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        if introduced { client.hello() }
        let name = String(repeating: "x", count: introduced ? 1_000_000 : 4000)
        client.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
        let answer = try #require(client.readLine())
        #expect(errorCode(answer) == (introduced ? -32601 : -32000), "\(answer.prefix(200))")
        #expect(answer.utf8.count < 512, "the answer repeats at most 64 bytes of the name: \(answer.utf8.count) bytes")
        client.sendLine(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(parsed(client.readLine())?["id"]?.int64Value == 2, "the connection stays")
    }

    @Test func invalidUTF8IsAParseError() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        client.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xC3, 0x28] + Array(#"ng"}"#.utf8) + [0x0A])
        #expect(errorCode(client.readLine()) == -32700)
    }

    @Test func nestingDeeperThan32IsRejectedAnd32IsNot() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        func request(depth: Int) -> String {
            // The params object is depth 1 below the envelope (itself depth 1).
            let inner = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
            return #"{"jsonrpc":"2.0","id":1,"method":"ping","params":\#(inner)}"#
        }
        client.sendLine(request(depth: 32))
        #expect(parsed(client.readLine())?["result"] != nil)
        client.sendLine(request(depth: 33))
        #expect(errorCode(client.readLine()) == -32700)
    }

    @Test func aLineOverTheLimitBeforeHelloIsAnErrorThenClose() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        let bystander = try broker.connect()
        bystander.hello()
        client.send([UInt8](repeating: UInt8(ascii: "x"), count: 4 * 1024 + 1))
        #expect(errorName(client.readLine()) == "lifebus.LineTooLong")
        #expect(client.waitForClose())
        expectBystanderStillServed(bystander)
    }

    @Test func aLineOverOneMebibyteAfterHelloIsAnErrorThenClose() throws {
        let broker = try BrokerFixture()
        let client = try broker.connect()
        client.hello()
        let bystander = try broker.connect()
        bystander.hello()
        // Exactly at the limit is fine: a valid request padded with spaces to 1 MiB.
        let request = Array(#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#.utf8)
        client.send(request + [UInt8](repeating: 0x20, count: 1024 * 1024 - request.count) + [0x0A])
        #expect(parsed(client.readLine())?["id"]?.int64Value == 5)
        client.send([UInt8](repeating: 0x20, count: 1024 * 1024 + 1))
        #expect(errorName(client.readLine()) == "lifebus.LineTooLong")
        #expect(client.waitForClose())
        expectBystanderStillServed(bystander)
    }

    @Test func aClientThatClosesMidLineHurtsNoOne() throws {
        let broker = try BrokerFixture()
        let bystander = try broker.connect()
        bystander.hello()
        do {
            let client = try broker.connect()
            client.hello()
            client.send(Array(#"{"jsonrpc":"2.0","id":1,"meth"#.utf8))
            client.shutdownWrite()
            #expect(client.waitForClose())
        }
        expectBystanderStillServed(bystander)
        #expect(broker.stop() == 0)
    }

    @Test func aThousandRequestsInOneWriteOrByteByByteGetIdenticalAnswers() throws {
        let broker = try BrokerFixture()
        var stream: [UInt8] = []
        // Each line, and what its answer must be: the id it echoes and the error code (nil: a result).
        var expected: [String] = []
        for number in 1...1000 {
            let line: String
            switch number % 5 {
            case 0:
                line = #"{"jsonrpc":"2.0","id":\#(number),"method":"ping"}"#
                expected.append("\(number) result")
            case 1:
                line = #"{"jsonrpc":"2.0","id":"s\#(number)","method":"nope"}"#
                expected.append("\"s\(number)\" error -32601")
            case 2:
                line = #"{"jsonrpc":"2.0","id":\#(number),"method":"ping""#
                expected.append("null error -32700")
            case 3:
                line = #"[{"jsonrpc":"2.0","id":\#(number),"method":"ping"},{"jsonrpc":"2.0","method":"ping"}]"#
                expected.append("[\(number) result]")
            default:
                line = #"{"jsonrpc":"2.0","id":\#(number),"method":"hello","params":{"role":"app"}}"#
                expected.append("\(number) error -32001")
            }
            stream += Array(line.utf8) + [0x0A]
        }
        func answers(byteByByte: Bool) throws -> [JSONValue] {
            let client = try broker.connect()
            client.hello()
            if byteByByte {
                for byte in stream { client.send([byte]) }
            } else {
                client.send(stream)
            }
            // Answers missing at the end are missing for good: the first wait that finds none ends the reading.
            var answers: [JSONValue] = []
            while answers.count < 1000, let line = client.readLine(timeout: .seconds(5)) {
                answers.append(withoutBrokerTime(parsed(line) ?? "unparsable"))
            }
            return answers
        }
        /// `id result`, `id error CODE`, or a batch's answers in brackets: what distinguishes one answer.
        func summary(_ answer: JSONValue) -> String {
            if let batch = answer.arrayValue { return "[" + batch.map(summary).joined(separator: ", ") + "]" }
            let id = answer["id"].map(\.jsonText) ?? "no id"
            if answer["result"] != nil { return "\(id) result" }
            return answer["error"]?["code"]?.int64Value.map { "\(id) error \($0)" } ?? "\(answer)"
        }
        let whole = try answers(byteByByte: false)
        let dripped = try answers(byteByByte: true)
        #expect(whole.map(summary) == expected)
        #expect(dripped.map(summary) == expected)
        #expect(whole == dripped)
    }
}

/// Removes the clock reading from ping results so answers compare by meaning.
func withoutBrokerTime(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(var object):
        object["brokerTime"] = nil
        var result = JSONObject()
        for (key, member) in object { result[key] = withoutBrokerTime(member) }
        return .object(result)
    case .array(let elements):
        return .array(elements.map(withoutBrokerTime))
    default:
        return value
    }
}
