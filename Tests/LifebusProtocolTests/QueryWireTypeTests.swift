import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `status`, `wait` and `history`: what controllers and observers ask and are told.
@Suite struct QueryWireTypeTests {
    static let appStatus: JSONValue = [
        "id": "com.example.x", "pid": 1234, "state": "active", "sinceMs": 12.5, "connected": true,
    ]
    static let status: JSONValue = [
        "profile": "ios7", "locked": false, "call": "inProgress", "alert": "sms", "foreground": "com.example.x",
        "apps": [appStatus],
    ]

    @Test func statusParamsRoundTripAndCheckTheAppID() throws {
        #expect(try StatusParams(json: [:]) == StatusParams())
        #expect(StatusParams().json == [:])
        #expect(try StatusParams(json: ["app": "com.x"]).json == ["app": "com.x"])
        #expect(Wire.rejectedField(StatusParams.init(json:), ["app": "no way"]) == "app")
        #expect(Wire.rejectedField(StatusParams.init(json:), ["app": 1]) == "app")
    }

    @Test func statusResultRoundTrips() throws {
        let result = try StatusResult(json: Self.status)
        #expect(result == StatusResult(
            profile: .ios7, locked: false, call: .inProgress, alert: .sms, foreground: "com.example.x",
            apps: [AppStatus(id: "com.example.x", pid: 1234, state: .active, sinceMs: 12.5, connected: true)]
        ))
        #expect(result.json == Self.status)
        let idle = StatusResult(profile: .ios3, locked: true, call: .none, alert: nil, foreground: nil, apps: [])
        #expect(idle.json.jsonText
            == #"{"profile":"ios3","locked":true,"call":"none","alert":null,"foreground":null,"apps":[]}"#)
        #expect(try StatusResult(json: idle.json) == idle)
        #expect(CallStatus.allCases.map(\.rawValue) == ["none", "ringing", "inProgress"])
    }

    @Test func appStatusWithoutAProcessWritesANullPid() throws {
        let status = AppStatus(id: "com.x", pid: nil, state: .notRunning, sinceMs: 0, connected: false)
        #expect(status.json.jsonText
            == #"{"id":"com.x","pid":null,"state":"notRunning","sinceMs":0.0,"connected":false}"#)
        #expect(try AppStatus(json: status.json) == status)
    }

    @Test(arguments: [
        ("profile", nil, "profile"), ("locked", "no", "locked"), ("call", "busy", "call"), ("call", nil, "call"),
        ("alert", "push", "alert"), ("foreground", 1, "foreground"), ("apps", nil, "apps"),
        ("apps", [["id": "x", "state": "gone", "sinceMs": 1]], "apps[0].state"),
        ("apps", [["id": "x", "state": "active"]], "apps[0].sinceMs"),
        ("apps", [["id": "x", "pid": "1", "state": "active", "sinceMs": 1]], "apps[0].pid"),
    ] as [(String, JSONValue?, String)])
    func statusResultRejectsAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        #expect(Wire.rejectedField(StatusResult.init(json:), Wire.with(Self.status, key, value)) == field)
    }

    @Test func waitParamsRoundTripWithAndWithoutTimeout() throws {
        let json: JSONValue = ["app": "com.x", "state": "background", "timeoutMs": 10000.0]
        #expect(try WaitParams(json: json) == WaitParams(app: "com.x", state: .background, timeoutMs: 10000))
        #expect(try WaitParams(json: json).json == json)
        #expect(try WaitParams(json: ["app": "com.x", "state": "suspended", "timeoutMs": 250]).timeoutMs == 250)
        let untimed = WaitParams(app: "com.x", state: .active)
        #expect(untimed.json == ["app": "com.x", "state": "active"])
        #expect(try WaitParams(json: untimed.json) == untimed)
    }

    @Test func waitParamsTakeSeveralStatesAsAnArray() throws {
        let json: JSONValue = ["app": "com.x", "state": ["background", "suspended", "background"]]
        let params = try WaitParams(json: json)
        #expect(params.states == [.background, .suspended], "duplicates dropped, order kept")
        #expect(params.json == ["app": "com.x", "state": ["background", "suspended"]])
        #expect(params.statesText == "background|suspended")
        #expect(Wire.rejectedField(WaitParams.init(json:), ["app": "com.x", "state": []]) == "state")
        #expect(Wire.rejectedField(WaitParams.init(json:), ["app": "com.x", "state": ["asleep"]]) == "state")
        #expect(Wire.rejectedField(WaitParams.init(json:), ["app": "com.x", "state": [1]]) == "state")
    }

    @Test(arguments: [
        ("app", nil, "app"), ("app", "", "app"), ("state", nil, "state"), ("state", "asleep", "state"),
        ("timeoutMs", "10s", "timeoutMs"), ("timeoutMs", -1, "timeoutMs"),
    ] as [(String, JSONValue?, String)])
    func waitParamsRejectAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        let json: JSONValue = ["app": "com.x", "state": "background"]
        #expect(Wire.rejectedField(WaitParams.init(json:), Wire.with(json, key, value)) == field)
    }

    @Test func waitResultRoundTrips() throws {
        let result = WaitResult(app: "com.x", state: .background, sinceMs: 123.4)
        #expect(result.json.jsonText == #"{"app":"com.x","state":"background","sinceMs":123.4}"#)
        #expect(try WaitResult(json: result.json) == result)
        #expect(Wire.rejectedField(WaitResult.init(json:), ["app": "com.x", "state": "background"]) == "sinceMs")
    }

    @Test func historyParamsRoundTripAndCheckTheirFields() throws {
        #expect(try HistoryParams(json: [:]) == HistoryParams())
        #expect(HistoryParams().json == [:])
        let json: JSONValue = ["app": "com.x", "limit": 100]
        #expect(try HistoryParams(json: json) == HistoryParams(app: "com.x", limit: 100))
        #expect(try HistoryParams(json: json).json == json)
        #expect(Wire.rejectedField(HistoryParams.init(json:), ["limit": 0]) == "limit")
        #expect(Wire.rejectedField(HistoryParams.init(json:), ["limit": 2.5]) == "limit")
        #expect(Wire.rejectedField(HistoryParams.init(json:), ["app": "a b"]) == "app")
        #expect(HistoryParams.retained == 10_000)
        #expect(Wire.rejectedField(HistoryParams.init(json:), ["limit": 1001]) == "limit")
        #expect(Wire.rejectedField(HistoryParams.init(json:), ["beforeSeq": 0]) == "beforeSeq")
        let paged: JSONValue = ["limit": 1000, "beforeSeq": 42]
        #expect(try HistoryParams(json: paged) == HistoryParams(limit: 1000, beforeSeq: 42))
        #expect(try HistoryParams(json: paged).json == paged)
    }

    @Test func historyResultRoundTripsMixedEntriesInOrder() throws {
        let json: JSONValue = ["entries": [Wire.transition, Wire.mark], "more": true]
        let result = try HistoryResult(json: json)
        #expect(result.entries.map(\.seq) == [17, 18])
        #expect(result.more)
        #expect(result.json == json)
        #expect(try HistoryResult(json: ["entries": []]) == HistoryResult(entries: [], more: false))
        #expect(Wire.rejectedField(HistoryResult.init(json:), ["entries": [["type": "note"]]]) == "entries[0].type")
        #expect(Wire.rejectedField(HistoryResult.init(json:), [:]) == "entries")
    }
}
