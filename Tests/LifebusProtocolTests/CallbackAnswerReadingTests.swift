import LifebusJSON
import LifebusProtocol
import PropertyBased
import Testing

/// A callback's answer read straight from its text must be what the general path reads (parse, then
/// `CallbackAnswer(readingLeniently:)`) whenever the fast reader answers, and it must answer for what the SDK writes.
@Suite struct CallbackAnswerReadingTests {
    static func general(_ text: [UInt8]) -> CallbackAnswer? {
        (try? JSONParser.parse(text)).map(CallbackAnswer.init(readingLeniently:))
    }

    static func fast(_ text: [UInt8]) -> CallbackAnswer? {
        text.withUnsafeBytes { CallbackAnswer(canonicalText: $0) }
    }

    @Test(arguments: [
        CallbackAnswer(), CallbackAnswer(handlerMs: 0), CallbackAnswer(handlerMs: 1.5),
        CallbackAnswer(handlerMs: 0.012_345, handlerFailed: true), CallbackAnswer(handlerFailed: true),
        CallbackAnswer(handlerMs: CallbackAnswer.maxHandlerMs),
    ])
    func readsWhatTheSDKWrites(answer: CallbackAnswer) {
        let text = answer.json.jsonBytes
        #expect(Self.fast(text) == answer)
        #expect(Self.general(text) == answer)
    }

    @Test(arguments: [
        "{}", #"{"handlerMs":2}"#, #"{"handlerMs":-0}"#, #"{"handlerMs":-0.0}"#, #"{"handlerMs":-1}"#,
        #"{"handlerMs":1e400}"#, #"{"handlerMs":86400001}"#, #"{"handlerMs":1e-400}"#, #"{"handlerMs":null}"#,
        #"{"handlerMs":"1"}"#, #"{"handlerMs":01}"#, #"{"handlerMs":1.}"#, #"{"handlerMs":}"#, #"{"handlerMs":1"#,
        #"{"handlerMs":1,"handlerFailed":false}"#, #"{"handlerMs":1,"handlerFailed":1}"#,
        #"{"handlerMs":1,"handlerFailed":true,"x":1}"#, #"{"handlerFailed":false}"#, #"{"handlerFailed":tru}"#,
        #"{"handlerFailed":true,"handlerMs":3}"#, #"{"handlerMs":1,"handlerMs":2}"#, #"{ }"#, #"{"x":1}"#, "[]",
        "null", "", "{", "{}}", #"{"handlerMs":1}x"#, #"{"handlerMs":1,}"#,
    ])
    func readsEdgesAsTheGeneralPathDoes(text: String) {
        let bytes = Array(text.utf8)
        if let fast = Self.fast(bytes) { #expect(fast == Self.general(bytes), "\(text)") }
    }

    @Test func readsRandomAnswersAsTheGeneralPathDoes() async {
        let texts = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
            var members: [String] = []
            if Int.random(in: 0..<4, using: &rng) > 0 {
                let number = RandomMessage.pick(
                    String(Double(UInt64.random(in: 0..<10_000_000, using: &rng)) / 1e3), "1e3", "-0", "1E-2", "0.5e1",
                    String(Double.random(in: -10...1e8, using: &rng)), String(Int.random(in: -5...100, using: &rng)),
                    using: &rng)
                members.append(#""handlerMs":"# + number)
            }
            if Bool.random(using: &rng) {
                members.append(#""handlerFailed":"# + RandomMessage.pick("true", "false", "null", "0", using: &rng))
            }
            if Int.random(in: 0..<6, using: &rng) == 0 { members.shuffle(using: &rng) }
            var bytes = Array(("{" + members.joined(separator: ",") + "}").utf8)
            if Int.random(in: 0..<6, using: &rng) == 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = RandomMessage.pick(0x7D, 0x2C, 0x20, 0x2E,
                                                                                          using: &rng)
            }
            return bytes
        }
        var read = 0
        await propertyCheck(count: 5000, input: texts) { text in
            guard let fast = Self.fast(text) else { return }
            read += 1
            #expect(fast == Self.general(text), "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(read > 1000)  // the fast reader takes most of them
    }
}
