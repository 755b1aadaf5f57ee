import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `fire`: its params' per-event rules, labels, and its result.
@Suite struct FireWireTypeTests {
    static let example: JSONValue = [
        "event": "call", "action": "answer", "app": nil, "level": nil, "byUser": false, "wait": true,
    ]

    @Test func theContractExampleRoundTrips() throws {
        let params = try FireParams(json: Self.example)
        #expect(params == FireParams(event: .call, action: .answer))
        #expect(params.json == Self.example)
        #expect(params.json.jsonText
            == #"{"event":"call","action":"answer","app":null,"level":null,"byUser":false,"wait":true}"#)
    }

    @Test func defaultsApplyWhenMembersAreAbsent() throws {
        let params = try FireParams(json: ["event": "call"])
        #expect(params == FireParams(event: .call, action: nil, wait: true))
        #expect(params.resolvedAction == .ring)
        #expect(try FireParams(json: ["event": "sms"]).resolvedAction == .show)
        #expect(try FireParams(json: ["event": "calendar"]).resolvedAction == .show)
        #expect(try FireParams(json: ["event": "home"]).resolvedAction == nil)
        #expect(try FireParams(json: ["event": "memory-warning"]).resolvedLevel == .warning)
        #expect(try FireParams(json: ["event": "home"]).resolvedLevel == nil)
        #expect(try FireParams(json: ["event": "home", "wait": false]).wait == false)
    }

    /// Every event with every member it may take: accepted, and round-trips.
    @Test(arguments: [
        ["event": "call", "action": "ring"], ["event": "call", "action": "decline"], ["event": "call", "action": "end"],
        ["event": "sms", "action": "banner"], ["event": "sms", "action": "reply"],
        ["event": "sms", "action": "dismiss"],
        ["event": "calendar", "action": "view"], ["event": "calendar", "action": "dismiss"],
        ["event": "sleep"], ["event": "wake"], ["event": "home", "byUser": false],
        ["event": "launch", "app": "com.x"], ["event": "activate", "app": "com.x"],
        ["event": "terminate", "app": "com.x", "byUser": true],
        ["event": "memory-warning", "level": "critical"], ["event": "memory-warning", "level": "warning"],
    ] as [JSONValue])
    func acceptsEveryEventWithTheMembersItTakes(json: JSONValue) throws {
        let params = try FireParams(json: json)
        #expect(try FireParams(json: params.json) == params)
    }

    @Test(arguments: [
        (["action": "answer"], "event"), (["event": "reboot"], "event"), (["event": 1], "event"),
        (["event": "call", "action": "show"], "action"), (["event": "call", "action": "hangup"], "action"),
        (["event": "sms", "action": "answer"], "action"), (["event": "sms", "action": "view"], "action"),
        (["event": "calendar", "action": "reply"], "action"), (["event": "calendar", "action": "banner"], "action"),
        (["event": "home", "action": "show"], "action"), (["event": "sleep", "action": "ring"], "action"),
        (["event": "launch", "app": "com.x", "action": "show"], "action"),
        (["event": "launch"], "app"), (["event": "activate"], "app"), (["event": "terminate"], "app"),
        (["event": "launch", "app": "bad id"], "app"), (["event": "launch", "app": 3], "app"),
        (["event": "call", "app": "com.x"], "app"), (["event": "memory-warning", "app": "com.x"], "app"),
        (["event": "memory-warning", "level": "severe"], "level"), (["event": "call", "level": "warning"], "level"),
        (["event": "terminate", "app": "com.x", "level": "critical"], "level"),
        (["event": "launch", "app": "com.x", "byUser": true], "byUser"), (["event": "home", "byUser": true], "byUser"),
        (["event": "terminate", "app": "com.x", "byUser": "yes"], "byUser"), (["event": "home", "wait": 1], "wait"),
    ] as [(JSONValue, String)])
    func rejectsAMemberTheEventDoesNotTakeNamingIt(json: JSONValue, field: String) {
        #expect(Wire.rejectedField(FireParams.init(json:), json) == field)
    }

    @Test func validateChecksValuesBuiltInCode() {
        #expect(throws: RPCError.self) { try FireParams(event: .launch).validate() }
        #expect(throws: RPCError.self) { try FireParams(event: .home, action: .ring).validate() }
        #expect(throws: Never.self) { try FireParams(event: .terminate, app: "com.x", byUser: true).validate() }
    }

    @Test(arguments: [
        (FireParams(event: .call), "call"),
        (FireParams(event: .call, action: .answer), "call --answer"),
        (FireParams(event: .sms, action: .reply), "sms --reply"),
        (FireParams(event: .calendar, action: .view, wait: false), "calendar --view"),
        (FireParams(event: .memoryWarning), "memory-warning"),
        (FireParams(event: .memoryWarning, level: .critical), "memory-warning --level critical"),
        (FireParams(event: .terminate, app: "X", byUser: true), "terminate --app X --by-user"),
        (FireParams(event: .terminate, app: "X"), "terminate --app X"),
        (FireParams(event: .launch, app: "X"), "launch X"),
        (FireParams(event: .activate, app: "com.x"), "activate com.x"),
        (FireParams(event: .sleep), "sleep"),
    ])
    func labelSpellsTheEventAsTheCLIDoes(params: FireParams, label: String) {
        #expect(params.label == label)
    }

    @Test func fireResultRoundTripsWithItsTransitions() throws {
        let json: JSONValue = [
            "eventID": 3, "event": "call --answer", "completed": true, "transitions": [Wire.transition], "noApp": false,
        ]
        let result = try FireResult(json: json)
        #expect(result == FireResult(
            eventID: 3, event: "call --answer", completed: true, transitions: [Wire.transitionRecord]))
        #expect(result.json == json)
        #expect(FireResult(eventID: 4, event: "home", completed: false).json.jsonText
            == #"{"eventID":4,"event":"home","completed":false,"transitions":[],"noApp":false}"#)
        #expect(FireResult(eventID: 5, event: "call", completed: true).noApp, "accepted, and no app moved")
    }

    @Test(arguments: [
        ("eventID", nil, "eventID"), ("eventID", 0, "eventID"), ("event", nil, "event"),
        ("completed", "yes", "completed"), ("transitions", nil, "transitions"), ("transitions", [:], "transitions"),
        ("transitions", [1], "transitions[0]"), ("transitions", [[:]], "transitions[0].seq"),
    ] as [(String, JSONValue?, String)])
    func fireResultRejectsAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        let json: JSONValue = ["eventID": 3, "event": "call", "completed": true, "transitions": []]
        #expect(Wire.rejectedField(FireResult.init(json:), Wire.with(json, key, value)) == field)
    }
}
