import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

@Suite struct WireTypeTests {
    static let appHello: JSONValue = [
        "role": "app", "protocolVersion": 1,
        "app": [
            "id": "com.example.x", "exitsOnSuspend": false, "backgroundModes": ["audio"], "launchInBackground": true,
        ],
        "client": "lifebus-cli/0.1",
    ]

    /// The error `body` throws, or `nil`.
    func rejection(_ body: () throws(RPCError) -> Void) -> RPCError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    func helloRejection(_ json: JSONValue) -> RPCError? {
        rejection { () throws(RPCError) in _ = try HelloParams(json: json) }
    }

    func with(_ json: JSONValue, _ key: String, _ value: JSONValue?) -> JSONValue {
        var object = json.objectValue!
        object[key] = value
        return .object(object)
    }

    func withApp(_ key: String, _ value: JSONValue?) -> JSONValue {
        with(Self.appHello, "app", with(Self.appHello["app"]!, key, value))
    }

    @Test func decodesAnAppHello() throws {
        let hello = try HelloParams(json: Self.appHello)
        #expect(hello == HelloParams(
            role: .app, protocolVersion: 1, appID: "com.example.x",
            flags: AppFlags(exitsOnSuspend: false, backgroundModes: ["audio"], launchInBackground: true),
            clientName: "lifebus-cli/0.1"
        ))
        #expect(hello.json == Self.appHello)
        #expect(hello.json.jsonText == #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.x","#
            + #""exitsOnSuspend":false,"backgroundModes":["audio"],"launchInBackground":true},"#
            + #""client":"lifebus-cli/0.1"}"#)
    }

    @Test func decodesAControllerHelloWithDefaults() throws {
        let hello = try HelloParams(json: ["role": "controller", "protocolVersion": 1])
        #expect(hello == HelloParams(role: .controller))
        #expect(try HelloParams(json: hello.json) == hello)
        #expect(try HelloParams(json: withApp("exitsOnSuspend", nil)).flags == AppFlags(
            exitsOnSuspend: false, backgroundModes: ["audio"], launchInBackground: true))
    }

    @Test(arguments: [
        ("role", nil, "role"), ("role", 1, "role"), ("role", "king", "role"),
        ("protocolVersion", nil, "protocolVersion"), ("protocolVersion", "1", "protocolVersion"),
        ("protocolVersion", 1.0, "protocolVersion"), ("protocolVersion", 0, "protocolVersion"),
        ("client", 5, "client"), ("app", nil, "app"), ("app", "com.x", "app"),
    ] as [(String, JSONValue?, String)])
    func rejectsAWrongHelloFieldNamingIt(key: String, value: JSONValue?, field: String) throws {
        let error = try #require(helloRejection(with(Self.appHello, key, value)))
        #expect(error.code == -32602)
        #expect(error.name == "jsonrpc.InvalidParams")
        #expect(error.data?["field"] == .string(field))
        #expect(error.message.contains("'\(field)'"))
    }

    @Test(arguments: [
        ("id", nil), ("id", 3), ("id", ""), ("id", "has space"), ("id", .string(String(repeating: "a", count: 256))),
        ("exitsOnSuspend", "no"), ("backgroundModes", "audio"), ("backgroundModes", [1]), ("launchInBackground", 0),
    ] as [(String, JSONValue?)])
    func rejectsAWrongAppFieldNamingItsPath(key: String, value: JSONValue?) throws {
        let error = try #require(helloRejection(withApp(key, value)))
        #expect(error.code == -32602)
        #expect(error.data?["field"] == .string("app.\(key)"))
    }

    @Test func rejectsAppDetailsFromOtherRolesAndNonObjectParams() throws {
        let controller = with(Self.appHello, "role", "controller")
        #expect(helloRejection(controller)?.data?["field"] == "app")
        #expect(helloRejection([1, 2])?.code == -32602)
        #expect(helloRejection(nil)?.code == -32602)
    }

    @Test func helloResultRoundTripsAndRejectsOutOfRangeIdentity() throws {
        let result = HelloResult(role: .app, peer: PeerIdentity(pid: 42, uid: 1000, gid: 100), profile: .ios7)
        #expect(result.json.jsonText == #"{"brokerVersion":"0.1.0","protocolVersion":1,"role":"app","#
            + #""peer":{"pid":42,"uid":1000,"gid":100},"profile":"ios7"}"#)
        #expect(try HelloResult(json: result.json) == result)
        var json = result.json.objectValue!
        json["peer"] = ["pid": 1, "uid": -1, "gid": 0]
        let error = try #require(rejection { () throws(RPCError) in _ = try HelloResult(json: .object(json)) })
        #expect(error.data?["field"] == "peer.uid")
        json["peer"] = nil
        let missing = try #require(rejection { () throws(RPCError) in _ = try HelloResult(json: .object(json)) })
        #expect(missing.data?["field"] == "peer")
    }

    @Test func pingResultRoundTripsAndRequiresPong() throws {
        let ping = PingResult(brokerTime: 123_456_789)
        #expect(ping.json.jsonText == #"{"pong":true,"brokerTime":123456789}"#)
        #expect(try PingResult(json: ping.json) == ping)
        let error = try #require(rejection { () throws(RPCError) in
            _ = try PingResult(json: ["pong": false, "brokerTime": 1])
        })
        #expect(error.data?["field"] == "pong")
    }

    @Test func appFlagsDecodeOnTheirOwn() throws {
        #expect(try AppFlags(json: [:]) == AppFlags())
        #expect(try AppFlags(json: AppFlags(exitsOnSuspend: true).json) == AppFlags(exitsOnSuspend: true))
    }

    @Test func methodNamesAndVersions() {
        #expect(LifebusMethod.hello == "hello")
        #expect(LifebusMethod.ping == "ping")
        #expect(ProtocolVersion.current == 1)
        #expect(LifebusVersion.current == "0.1.0")
        #expect(PeerRole.allCases.map(\.rawValue) == ["app", "controller", "observer"])
    }
}
