import LifebusJSON
import LifebusLifecycle
@testable import LifebusProtocol
import PropertyBased
import Testing

/// `fire` params read straight from their text (`FireParams.readCanonical`) must be what the general path reads
/// (parse, then `init(json:)`) whenever the fast reader answers, must give back the very tree parsing builds, and
/// must answer for what the CLI and the SDK write.
@Suite struct FireParamsReadingTests {
    static func general(_ text: [UInt8]) -> Result<FireParams, RPCError>? {
        guard let json = try? JSONParser.parse(text) else { return nil }
        do throws(RPCError) { return .success(try FireParams(json: json)) } catch { return .failure(error) }
    }

    static func fast(_ text: [UInt8]) -> (params: FireParams, members: FireParams.Members)? {
        text.withUnsafeBytes { FireParams.readCanonical($0) }
    }

    /// Every valid combination of event, action, level and app the CLI can send (from each event's declaration).
    static let written: [FireParams] = FireParams.FireEvent.allCases.flatMap { event -> [FireParams] in
        let declaration = event.declaration
        let actions: [FireParams.Action?] = (declaration.requiresAction ? [] : [nil]) + declaration.actions
        let levels: [MemoryWarningLevel?] = [nil] + declaration.levels
        let app: String? = declaration.target == .app ? "com.example.notes-2_b" : nil
        return actions.flatMap { action in
            levels.flatMap { level in
                [false, true].flatMap { wait in
                    ([false] + (declaration.takesByUser ? [true] : [])).map { byUser in
                        FireParams(event: event, action: action, app: app, level: level, byUser: byUser, wait: wait)
                    }
                }
            }
        }.filter { (try? $0.validate()) != nil }  // a scene action that needs a scene or session: SceneWireTests
    }

    @Test func readsEverythingTheCLIWrites() throws {
        #expect(Self.written.count > 40)
        for params in Self.written {
            let text = params.json.jsonBytes
            let read = try #require(Self.fast(text), "\(String(decoding: text, as: UTF8.self))")
            #expect(read.params == params)
            #expect(read.members == .all)
            #expect(Self.general(text) == .success(params))
            // A request carries them packed in a word, when they name no app.
            let packed = FireParams.Packed(params, members: read.members)
            #expect(packed?.params == (params.app == nil ? params : nil))
            #expect(packed?.members == (params.app == nil ? read.members : nil))
        }
    }

    @Test func aCanonicalFireLineCarriesTypedParamsAndTheSameTree() throws {
        let line = Array(#"{"jsonrpc":"2.0","id":7,"method":"fire","params":{"event":"memory-warning"}}"#.utf8)
        guard case .message(.request(let plain)) = RPCCodec.decode(line: line) else {
            Issue.record("not a request")
            return
        }
        #expect(plain.fireParams == nil)  // a decoder that knows no method builds the tree
        let decoded = line.withUnsafeBytes { RPCCodec.decode(line: $0, decoding: BrokerDecoding.self) }
        guard case .message(.request(let request)) = decoded else {
            Issue.record("not a request")
            return
        }
        #expect(request.fireParams == FireParams(event: .memoryWarning))
        #expect(request.params == ["event": "memory-warning"])
        #expect(request == RPCRequest(id: 7, method: "fire", params: ["event": "memory-warning"]))
        #expect(request == plain)
        #expect(RPCCodec.encode(.request(request)) == line)
        let naming = Array(#"{"jsonrpc":"2.0","id":8,"method":"fire","params":{"event":"launch","app":"com.a"}}"#.utf8)
        let decodedLaunch = naming.withUnsafeBytes { RPCCodec.decode(line: $0, decoding: BrokerDecoding.self) }
        guard case .message(.request(let launch)) = decodedLaunch else {
            Issue.record("not a request")
            return
        }
        #expect(launch.fireParams == nil)  // params that name an app take the general path
        #expect(launch.params == ["event": "launch", "app": "com.a"])
        var changed = request
        changed.params = ["event": "home"]
        #expect(changed.fireParams == nil)
        #expect(changed.params == ["event": "home"])
    }

    @Test(arguments: [
        #"{"event":"home"}"#, #"{"event":"call","action":null}"#, #"{"event":"call","action":"answer","app":null}"#,
        #"{"event":"launch","app":"com.a"}"#, #"{"event":"launch"}"#, #"{"event":"launch","app":null}"#,
        #"{"event":"launch","app":""}"#, #"{"event":"launch","app":"a b"}"#, #"{"event":"home","app":"com.a"}"#,
        #"{"event":"call","action":"view"}"#, #"{"event":"home","action":"ring"}"#, #"{"event":"home","level":null}"#,
        #"{"event":"home","level":"critical"}"#, #"{"event":"memory-warning","level":"critical"}"#,
        #"{"event":"memory-warning","level":"severe"}"#, #"{"event":"home","byUser":true}"#,
        #"{"event":"terminate","app":"x","byUser":true}"#, #"{"event":"home","byUser":null}"#,
        #"{"event":"home","wait":false}"#, #"{"event":"home","wait":0}"#, #"{"event":"home","wait":"true"}"#,
        #"{"event":"Home"}"#, #"{"event":"hom"}"#, #"{"event":"home2"}"#, #"{"event":"ho\u006de"}"#, #"{"event":null}"#,
        #"{"event":3}"#, #"{"action":"ring","event":"call"}"#, #"{"event":"home","event":"call"}"#,
        #"{"event":"home","x":1}"#, #"{"event":"home" }"#, #"{ "event":"home"}"#, #"{"event":"home"}}"#,
        #"{"event":"home","wait":true,"wait":false}"#, #"{"event":"home","wait":true}x"#, #"{"event":"home""#,
        #"{"event":"call","action":"ring","app":null,"level":null,"byUser":false,"wait":true}"#, "{}", "[]", "",
    ])
    func readsEdgesAsTheGeneralPathDoes(text: String) {
        Self.expectSame(Array(text.utf8))
    }

    static func expectSame(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = String(decoding: text, as: UTF8.self)
        guard let fast = fast(text) else {
            // Whatever the fast reader leaves, the general path must still read (or refuse) on its own.
            return
        }
        #expect(general(text) == .success(fast.params), "\(shown)", sourceLocation: sourceLocation)
        #expect(fast.params.json(members: fast.members) == (try? JSONParser.parse(text)), "\(shown)",
                sourceLocation: sourceLocation)
        let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"fire","params":"#.utf8) + text + [UInt8(ascii: "}")]
        let packed = line.withUnsafeBytes { RPCCodec.decode(line: $0, decoding: BrokerDecoding.self) }
        #expect(packed == RPCCodecCanonicalTests.general(line), "\(shown)", sourceLocation: sourceLocation)
        // Params that name no app travel packed, and the fire path reads back what was read.
        guard case .message(.request(let request)) = packed else {
            Issue.record("\(shown): not a request", sourceLocation: sourceLocation)
            return
        }
        #expect(request.fireParams == (fast.params.app == nil ? fast.params : nil), "\(shown)",
                sourceLocation: sourceLocation)
    }

    @Test func readsRandomParamsAsTheGeneralPathDoes() async {
        let texts = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
            var members = [#""event":"# + RandomMessage.pick(
                #""call""#, #""sms""#, #""home""#, #""memory-warning""#, #""terminate""#, #""launch""#, #""x""#, "null",
                using: &rng)]
            let values: [(String, [String])] = [
                ("action", [#""ring""#, #""answer""#, #""show""#, #""view""#, #""nope""#, "null", "1"]),
                ("app", [#""com.example.a""#, #""a b""#, #""""#, "null", "true"]),
                ("level", [#""warning""#, #""critical""#, #""x""#, "null"]),
                ("byUser", ["true", "false", "null", "1"]),
                ("wait", ["true", "false", "null", #""true""#]),
            ]
            for (name, choices) in values where Int.random(in: 0..<3, using: &rng) == 0 {
                members.append("\"\(name)\":" + choices.randomElement(using: &rng)!)
            }
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: members.shuffle(using: &rng)
            case 1: members.append(#""extra":[1]"#)
            case 2: members.append(members.randomElement(using: &rng)!)
            default: break
            }
            var bytes = Array(("{" + members.joined(separator: ",") + "}").utf8)
            if Int.random(in: 0..<8, using: &rng) == 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = RandomMessage.pick(
                    0x7D, 0x2C, 0x20, 0x22, 0x5C, using: &rng)
            }
            return bytes
        }
        var read = 0
        await propertyCheck(count: 5000, input: texts) { text in
            if Self.fast(text) != nil { read += 1 }
            Self.expectSame(text)
        }
        #expect(read > 300)  // the fast reader takes the well-formed ones
    }
}
