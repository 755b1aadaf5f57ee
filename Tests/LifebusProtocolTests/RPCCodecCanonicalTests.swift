import Foundation
import LifebusJSON
@testable import LifebusProtocol
import PropertyBased
import Testing

/// `RPCCodec.decode(line:)` skips the envelope's tree for lines written as peers write them; whatever the line,
/// the outcome must be the general path's (parse the whole line, then `decode(json:)`).
@Suite struct RPCCodecCanonicalTests {
    static func general(_ line: [UInt8]) -> RPCInbound {
        do {
            return RPCCodec.decode(json: try JSONParser.parse(line))
        } catch {
            return .invalid(.parseError(error.description), id: nil)
        }
    }

    /// The same outcome whatever the decoder knows of the methods (nothing, or what the broker's knows).
    static func expectSame(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = String(decoding: line, as: UTF8.self)
        #expect(RPCCodec.decode(line: line) == general(line), "\(shown)", sourceLocation: sourceLocation)
        let packed = line.withUnsafeBytes { RPCCodec.decode(line: $0, decoding: BrokerDecoding.self) }
        #expect(packed == general(line), "\(shown)", sourceLocation: sourceLocation)
    }

    @Test func canonicalRequestsTakeTheFastPath() {
        let line = Array(#"{"jsonrpc":"2.0","id":12,"method":"ping"}"#.utf8)
        let fast = line.withUnsafeBytes { RPCCodec.decodeCanonical($0) }
        #expect(fast == .message(.request(RPCRequest(id: 12, method: "ping"))))
        let notification = Array(#"{"jsonrpc":"2.0","method":"transition","params":{"seq":1}}"#.utf8)
        #expect(notification.withUnsafeBytes { RPCCodec.decodeCanonical($0) }
            == .message(.request(.notification("transition", params: ["seq": 1]))))
        let answer = Array(#"{"jsonrpc":"2.0","id":0,"result":{"handlerMs":1.5}}"#.utf8)
        #expect(answer.withUnsafeBytes { RPCCodec.decodeCanonical($0) }
            == .message(.response(.success(id: 0, ["handlerMs": 1.5]))))
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#, #"{"jsonrpc":"2.0","id":1,"method":"m","params":[]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"id":2}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}},{"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#, #"{"jsonrpc":"2.0","id":1,"method":"ping","id":2}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"pi\"ng"}"#, #"{"jsonrpc":"2.0","id":1,"method":"pi\u0067"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"é"}"#, #"{"jsonrpc":"2.0","id":1,"method":"a\#u{1}"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":""}"#, #"{"jsonrpc":"2.0","id":1,"method":"ping}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping"} "#, #"{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":3}"#, #"{"jsonrpc":"2.0","id":01,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":-1,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":"a","method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":123456789012345678,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":9999999999999999999,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","jsonrpc":"1.0","method":"ping"}"#, #"{"jsonrpc":"2.0","method":"ping","method":"x"}"#,
        #"{"jsonrpc":"2.0","method":"ping","params":"# + String(repeating: "[", count: 31)
            + String(repeating: "]", count: 31) + "}",
        #"{"jsonrpc":"2.0","method":"ping","params":"# + String(repeating: "[", count: 32)
            + String(repeating: "]", count: 32) + "}",
        #"{"jsonrpc":"2.0","method":"ping","params":{"a":"\#u{0}"}}"#,
    ])
    func decodesARequestAsTheGeneralPathDoes(text: String) {
        Self.expectSame(Array(text.utf8))
    }

    /// Every message of the transcripts, compact as peers write it and as the codec re-encodes it.
    @Test func decodesTheTranscriptsAsTheGeneralPathDoes() throws {
        let examples = Fixtures.repositoryRoot.appendingPathComponent("Protocol/examples")
        let files = Fixtures.files(in: examples, suffix: ".jsonl")
        try #require(files.count >= 5)
        var messages = 0
        for file in files {
            let text = String(decoding: try Fixtures.bytes(examples.appendingPathComponent(file)), as: UTF8.self)
            for line in text.split(separator: "\n") {
                guard case .object(let step) = try JSONParser.parse(String(line)) else { continue }
                for key in ["send", "expect"] {
                    guard let message = step[key] else { continue }
                    Self.expectSame(message.jsonBytes)
                    if case .message(let decoded) = RPCCodec.decode(json: message) {
                        Self.expectSame(RPCCodec.encode(decoded))
                    }
                    messages += 1
                }
            }
        }
        #expect(messages > 50)
    }

    @Test func decodesRandomMessagesAsTheGeneralPathDoes() async {
        await propertyCheck(count: 3000, input: RandomMessage.generator) { line in
            Self.expectSame(line)
        }
    }
}

/// Random message lines: canonical envelopes (often), their members shuffled, dropped, repeated or of the wrong
/// type, and the text cut or a byte changed.
enum RandomMessage {
    static let generator = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in line(&rng) }

    static func line(_ rng: inout some RandomNumberGenerator) -> [UInt8] {
        var members: [String] = [#""jsonrpc":"# + pick(#""2.0""#, #""1.0""#, "2", using: &rng)]
        if Int.random(in: 0..<4, using: &rng) > 0 {
            members.append(#""id":"# + pick(
                String(UInt64.random(in: 0...1_000_000, using: &rng) >> UInt64.random(in: 0...20, using: &rng)),
                String(UInt64.random(in: 0...UInt64.max, using: &rng)), "0\(Int.random(in: 0...9, using: &rng))",
                "-3", "1.5", #""s""#, "null", using: &rng))
        }
        if Bool.random(using: &rng) {
            members.append(#""method":"# + pick(#""ping""#, #""reportMemory""#, #""fire""#, #""a\u0062""#, #""é""#, "7",
                                               using: &rng))
            if Bool.random(using: &rng) {
                members.append(#""params":"# + WireRecordGenerators.value(&rng, depth: 6).jsonText)
            }
        } else {
            members.append(#""result":"# + WireRecordGenerators.value(&rng, depth: 6).jsonText)
            if Int.random(in: 0..<8, using: &rng) == 0 { members.append(#""error":{"code":1,"message":"m"}"#) }
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: members.shuffle(using: &rng)
        case 1: members.remove(at: Int.random(in: 0..<members.count, using: &rng))
        case 2: members.append(members.randomElement(using: &rng)!)
        default: break
        }
        var bytes = Array(("{" + members.joined(separator: ",") + "}").utf8)
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &rng))
        case 1: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = pick(0x22, 0x7D, 0x2C, 0x20, 0x5C, 0x30, 0xFF,
                                                                               using: &rng)
        case 2: bytes.append(pick(0x7D, 0x20, 0x2C, using: &rng))
        default: break
        }
        return bytes
    }

    static func pick<T>(_ choices: T..., using rng: inout some RandomNumberGenerator) -> T {
        choices.randomElement(using: &rng)!
    }
}
