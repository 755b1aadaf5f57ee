import LifebusJSON
import LifebusProtocol
import Testing

@Suite struct RPCCodecTests {
    func decode(_ text: String) -> RPCInbound {
        RPCCodec.decode(line: Array(text.utf8))
    }

    func encode(_ message: RPCMessage) -> String {
        String(decoding: RPCCodec.encode(message), as: UTF8.self)
    }

    @Test func decodesARequestWithANumberID() {
        let inbound = decode(#"{"jsonrpc":"2.0","id":17,"method":"ping","params":{"seq":17}}"#)
        #expect(inbound == .message(.request(RPCRequest(id: 17, method: "ping", params: ["seq": 17]))))
    }

    @Test func decodesARequestWithAStringIDAndArrayParams() {
        let inbound = decode(#"{"method":"m","params":[1,2],"id":"abc","jsonrpc":"2.0"}"#)
        #expect(inbound == .message(.request(RPCRequest(id: "abc", method: "m", params: [1, 2]))))
    }

    @Test func decodesANotificationAsARequestWithoutID() {
        let inbound = decode(#"{"jsonrpc":"2.0","method":"lifebus.event"}"#)
        #expect(inbound == .message(.request(.notification("lifebus.event"))))
    }

    @Test func decodesResponsesWithResultAndWithError() {
        #expect(decode(#"{"jsonrpc":"2.0","id":1,"result":{"pong":true}}"#)
            == .message(.response(.success(id: 1, ["pong": true]))))
        let failure = decode(
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"gone","#
                + #""data":{"name":"lifebus.AppNotFound"}}}"#
        )
        guard case .message(.response(let response)) = failure, case .failure(let error) = response.result else {
            Issue.record("not an error response: \(failure)")
            return
        }
        #expect(response.id == nil)
        #expect(error.code == -32005)
        #expect(error.name == "lifebus.AppNotFound")
        #expect(error.lifebusCode == .appNotFound)
    }

    /// Answers written as peers write them skip the envelope's tree; the outcome must be the general path's,
    /// for them and for every near miss.
    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":7,"result":{}}"#, #"{"jsonrpc":"2.0","id":0,"result":{"handlerMs":1.5}}"#,
        #"{"jsonrpc":"2.0","id":123456789012345678,"result":[1,"x",null]}"#,
        #"{"jsonrpc":"2.0","id":1234567890123456789,"result":{}}"#, #"{"jsonrpc":"2.0","id":07,"result":{}}"#,
        #"{"jsonrpc":"2.0","id":9999999999999999999,"result":{}}"#,  // the daemon fuzzer's: overflowed the fast path
        #"{"jsonrpc":"2.0","id":999999999999999999999,"result":{}}"#,
        #"{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"m"}}"#,
        #"{"jsonrpc":"2.0","id":7,"result":{}} "#, #"{"jsonrpc":"2.0","id":7,"result": 3 }"#,
        #"{"jsonrpc":"2.0","id":7,"result":{}},{"#, #"{"jsonrpc":"2.0","id":7,"result":}"#,
        #"{"jsonrpc":"2.0","id":7,"result":{"a":1}}}"#, #"{"jsonrpc":"2.0","id":-7,"result":{}}"#,
        #"{"jsonrpc":"2.0","id":7,"result":"\#u{1}"}"#,
        #"{"jsonrpc":"2.0","id":7,"result":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
            + "}",
        #"{"jsonrpc":"2.0","id":7,"result":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
            + "}",
    ])
    func decodesAnAnswerAsTheGeneralPathDoes(text: String) {
        let general: RPCInbound
        do {
            general = RPCCodec.decode(json: try JSONParser.parse(text))
        } catch {
            general = .invalid(.parseError(error.description), id: nil)
        }
        #expect(decode(text) == general)
    }

    @Test(arguments: ["{", "not json", "{\"jsonrpc\":\"2.0\",\"method\":\"x\"} trailing", ""])
    func answersTextThatIsNotJSONWithParseError(text: String) {
        guard case .invalid(let error, let id) = decode(text) else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == -32700)
        #expect(error.name == "jsonrpc.ParseError")
        #expect(id == nil)
    }

    @Test func answersInvalidUTF8WithParseError() {
        let inbound = RPCCodec.decode(line: [0x22, 0xC0, 0xAF, 0x22])
        #expect(inbound == .invalid(.parseError("invalid UTF-8 at byte 1"), id: nil))
    }

    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":3,"method":5}"#, RPCID?.some(3)),
        (#"{"jsonrpc":"1.0","id":"r","method":"ping"}"#, "r"),
        (#"{"id":4,"method":"ping"}"#, 4),
        (#"{"jsonrpc":"2.0","id":5,"method":"ping","params":3}"#, 5),
        (#"{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}"#, 6),
        (#"{"jsonrpc":"2.0","id":7,"method":"ping","params":null}"#, 7),
        (#"{"jsonrpc":"2.0","id":8,"method":"ping","result":1}"#, 8),
        (#"{"jsonrpc":"2.0","id":9,"result":1,"error":{"code":1,"message":"m"}}"#, 9),
        (#"{"jsonrpc":"2.0","id":10,"error":{"code":"x","message":"m"}}"#, 10),
        (#"{"jsonrpc":"2.0","id":11}"#, 11),
        (#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, nil),
        (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, nil),
        (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, nil),
        (#"{"jsonrpc":"2.0","result":1}"#, nil),
        (#"17"#, nil),
        (#""ping""#, nil),
        (#"{}"#, nil),
    ] as [(String, RPCID?)])
    func answersJSONThatIsNotAMessageWithInvalidRequestAndTheReadableID(text: String, id: RPCID?) {
        guard case .invalid(let error, let readID) = decode(text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.code == -32600)
        #expect(error.name == "jsonrpc.InvalidRequest")
        #expect(readID == id)
    }

    @Test func answersAnEmptyBatchWithInvalidRequest() {
        guard case .invalid(let error, nil) = decode("[]") else {
            Issue.record("not invalid")
            return
        }
        #expect(error.code == -32600)
    }

    @Test func answersAnOversizedBatchWithOneLimitExceeded() {
        let elements = Array(repeating: #"{"jsonrpc":"2.0","method":"n"}"#, count: RPCCodec.maxBatchCount)
        guard case .batch(let decoded) = decode("[" + elements.joined(separator: ",") + "]") else {
            Issue.record("a batch of the maximum size was refused")
            return
        }
        #expect(decoded.count == RPCCodec.maxBatchCount)
        guard case .invalid(let error, nil) = decode("[" + (elements + ["1"]).joined(separator: ",") + "]") else {
            Issue.record("an oversized batch was accepted")
            return
        }
        #expect(RPCCodec.maxBatchCount == 64)  // Protocol/README.md §4 and §15.2 say 64 and -32012
        #expect(error.code == -32012)
        #expect(error.name == "lifebus.LimitExceeded")
        #expect(error.data?["limit"] == "batchMessages")
    }

    @Test func decodesEachBatchElementOnItsOwn() {
        let inbound = decode(#"[{"jsonrpc":"2.0","id":1,"method":"ping"},1,{"jsonrpc":"2.0","method":"n"},{"x":1}]"#)
        guard case .batch(let elements) = inbound else {
            Issue.record("not a batch: \(inbound)")
            return
        }
        #expect(elements.count == 4)
        #expect(elements[0] == .success(.request(RPCRequest(id: 1, method: "ping"))))
        #expect((try? elements[1].get()) == nil)
        #expect(elements[2] == .success(.request(.notification("n"))))
        if case .failure(let error) = elements[3] { #expect(error.code == -32600) } else { Issue.record("accepted") }
    }

    @Test func ignoresUnknownEnvelopeMembers() {
        #expect(decode(#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":[1]}"#)
            == .message(.request(RPCRequest(id: 1, method: "ping"))))
    }

    @Test func encodesEnvelopesInAFixedMemberOrderWithoutNewline() {
        #expect(encode(.request(RPCRequest(id: 17, method: "ping", params: ["seq": 17])))
            == #"{"jsonrpc":"2.0","id":17,"method":"ping","params":{"seq":17}}"#)
        #expect(encode(.request(.notification("tick"))) == #"{"jsonrpc":"2.0","method":"tick"}"#)
        #expect(encode(.response(.success(id: "a", true))) == #"{"jsonrpc":"2.0","id":"a","result":true}"#)
        #expect(encode(.response(.failure(id: nil, .methodNotFound("nope"))))
            == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found","#
            + #""data":{"name":"jsonrpc.MethodNotFound","method":"nope"}}}"#)
    }

    @Test func encodesABatch() {
        var buffer: [UInt8] = []
        RPCCodec.encodeBatch([.request(.notification("a")), .response(.success(id: 2, nil))], to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self)
            == #"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":null}]"#)
    }

    static let messages: [RPCMessage] = [
        .request(RPCRequest(id: 1, method: "hello", params: HelloParams(role: .controller).json)),
        .request(RPCRequest(id: "x\n\"y", method: "ping\u{0}", params: [])),
        .request(RPCRequest(id: .number(.min), method: "m", params: ["a": ["b": [1.5, nil]]])),
        .request(.notification("lifebus.tick", params: ["t": 1])),
        .response(.success(id: 3, ["pong": true, "brokerTime": 99])),
        .response(.success(id: nil, nil)),
        .response(.failure(id: 4, RPCError(.appIDInUse, "taken", data: ["appID": "com.x"]))),
        .response(.failure(id: "s", RPCError(code: 7, message: "no data"))),
    ]

    @Test(arguments: messages)
    func encodeThenDecodeGivesTheSameMessage(message: RPCMessage) {
        let bytes = RPCCodec.encode(message)
        #expect(!bytes.contains(0x0A))
        #expect(RPCCodec.decode(line: bytes) == .message(message))
    }

    @Test func encodeBatchThenDecodeGivesTheSameMessages() {
        var buffer: [UInt8] = []
        RPCCodec.encodeBatch(Self.messages, to: &buffer)
        #expect(RPCCodec.decode(line: buffer) == .batch(Self.messages.map { .success($0) }))
    }
}
