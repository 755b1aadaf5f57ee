import Glibc
import LifebusProtocol

/// Times, per message, today's hand-written conversion (`init(json:)` and `.json`) against `Codable` over
/// `JSONValue` (`JSONValueDecoder`/`JSONValueEncoder`) for four messages, from a parsed `JSONValue` to the type and
/// back: the question of issue 14 item 6 (convert if `Codable` costs under ~0.3 µs more per message). It costs
/// 3.6 to 30 µs more (`ARCHITECTURE.md`, LifebusProtocol): the wire types stay hand-written. Stateless; prints one
/// table.
enum ProtocolBenchmark {
    struct Message {
        let name: String
        let json: JSONValue
        let hand: (JSONValue) throws -> JSONValue
        let codable: (JSONValue) throws -> JSONValue
    }

    static func message<T: Codable>(
        _ name: String, _ text: String, _ type: T.Type, hand: @escaping (JSONValue) throws -> JSONValue
    ) throws -> Message {
        Message(name: name, json: try JSONParser.parse(text), hand: hand) { json in
            try JSONValueEncoder.encode(try JSONValueDecoder.decode(type, from: json, []))
        }
    }

    static func main(arguments: [String]) throws {
        let rounds = arguments.contains("--quick") ? 20_000 : 200_000
        let messages = [
            try message(
                "hello params (app)",
                #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.A","exitsOnSuspend":false,"#
                    + #""backgroundModes":["audio"],"launchInBackground":false},"client":"lifebus-sdk"}"#,
                CodableMessages.Hello.self
            ) { try HelloParams(json: $0).json },
            try message(
                "callback result", #"{"handlerMs":1.234,"handlerFailed":false}"#, CodableMessages.CallbackResult.self
            ) { try CallbackAnswer(json: $0).json },
            try message(
                "fire params",
                #"{"event":"call","action":"answer","app":null,"level":null,"byUser":false,"wait":true}"#,
                CodableMessages.Fire.self
            ) { try FireParams(json: $0).json },
            try message(
                "history entry (transition)",
                #"{"type":"transition","seq":17,"app":"com.example.A","pid":1234,"callback":"didEnterBackground","#
                    + #""cause":{"eventID":3,"event":"call --answer"},"from":"inactive","to":"background","#
                    + #""firedMs":10.5,"sentMs":10.6,"answeredMs":13.1,"handlerMs":2.3,"budgetMs":5000.0,"#
                    + #""outcome":"ok","handlerFailed":false,"wallMs":1763780000000}"#,
                CodableMessages.Transition.self
            ) { try JournalEntry(json: $0).json },
        ]
        print("message                        hand µs   Codable µs   difference µs   (decode + encode, best of 5)")
        for message in messages {
            let hand = try best(rounds) { try message.hand(message.json) }
            let codable = try best(rounds) { try message.codable(message.json) }
            print(pad(message.name, 30), pad(format(hand), 9), pad(format(codable), 12), format(codable - hand))
        }
    }

    /// The fastest of five runs of `rounds` calls, in µs per call.
    static func best(_ rounds: Int, _ body: () throws -> JSONValue) throws -> Double {
        var fastest = Double.infinity
        var sink = 0
        for _ in 0..<5 {
            let start = now()
            for _ in 0..<rounds {
                if case .object(let object) = try body() { sink &+= object.count }
            }
            fastest = min(fastest, Double(now() - start) / 1_000 / Double(rounds))
        }
        if sink == 42 { print("") }  // keeps the results alive
        return fastest
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func format(_ microseconds: Double) -> String {
        let hundredths = Int((microseconds * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
