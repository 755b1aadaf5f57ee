import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The wire types apps and the broker exchange: callbacks, background tasks, marks, memory reports.
@Suite struct AppWireTypeTests {
    static let callback: JSONValue = [
        "callbackID": 12, "callback": "didEnterBackground", "state": "background", "budgetMs": 5000.0,
        "cause": Wire.cause,
    ]

    @Test func callbackParamsRoundTrip() throws {
        let params = try CallbackParams(json: Self.callback)
        #expect(params == CallbackParams(
            callbackID: 12, callback: .didEnterBackground, state: .background, budgetMs: 5000,
            cause: EventCause(eventID: 3, event: "call --answer")
        ))
        #expect(params.json == Self.callback)
        #expect(params.json.jsonText == #"{"callbackID":12,"callback":"didEnterBackground","state":"background","#
            + #""budgetMs":5000.0,"cause":{"eventID":3,"event":"call --answer"}}"#)
    }

    @Test func callbackParamsWithoutCauseWriteNullAndAcceptIntegerBudgets() throws {
        let params = try CallbackParams(json: Wire.with(Wire.with(Self.callback, "cause", nil), "budgetMs", 5000))
        #expect(params.cause == nil)
        #expect(params.budgetMs == 5000)
        #expect(params.json["cause"] == .null)
        #expect(try CallbackParams(json: params.json) == params)
    }

    @Test(arguments: [
        ("callbackID", nil, "callbackID"), ("callbackID", 0, "callbackID"), ("callbackID", "1", "callbackID"),
        ("callback", nil, "callback"), ("callback", "didExplode", "callback"), ("callback", 3, "callback"),
        ("state", nil, "state"), ("state", "running", "state"),
        ("budgetMs", nil, "budgetMs"), ("budgetMs", -1, "budgetMs"), ("budgetMs", "5s", "budgetMs"),
        ("cause", 3, "cause"), ("cause", ["event": "call"], "cause.eventID"),
        ("cause", ["eventID": 3], "cause.event"), ("cause", ["eventID": 0, "event": "x"], "cause.eventID"),
    ] as [(String, JSONValue?, String)])
    func callbackParamsRejectAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        #expect(Wire.rejectedField(CallbackParams.init(json:), Wire.with(Self.callback, key, value)) == field)
    }

    @Test func callbackAnswerRoundTripsWithAndWithoutHandlerTime() throws {
        #expect(try CallbackAnswer(json: ["handlerMs": 1.234]) == CallbackAnswer(handlerMs: 1.234))
        #expect(CallbackAnswer(handlerMs: 1.234).json.jsonText == #"{"handlerMs":1.234}"#)
        #expect(try CallbackAnswer(json: [:]) == CallbackAnswer())
        #expect(CallbackAnswer().json == [:])
        #expect(Wire.rejectedField(CallbackAnswer.init(json:), ["handlerMs": "fast"]) == "handlerMs")
        #expect(Wire.rejectedField(CallbackAnswer.init(json:), ["handlerMs": -0.5]) == "handlerMs")
    }

    @Test func eventCauseRoundTripsAndNamesItsFields() throws {
        let cause = try EventCause(json: Wire.cause)
        #expect(cause == EventCause(eventID: 3, event: "call --answer"))
        #expect(cause.json == Wire.cause)
        #expect(Wire.rejectedField(EventCause.init(json:), ["eventID": 3]) == "event")
        #expect(Wire.rejectedField(EventCause.init(json:), ["eventID": 1.5, "event": "x"]) == "eventID")
    }

    @Test func backgroundTaskTypesRoundTrip() throws {
        #expect(try BackgroundTaskBeginParams(json: ["name": "upload"]) == BackgroundTaskBeginParams(name: "upload"))
        #expect(BackgroundTaskBeginParams(name: "upload").json == ["name": "upload"])
        #expect(try BackgroundTaskBeginParams(json: [:]) == BackgroundTaskBeginParams())
        #expect(BackgroundTaskBeginParams().json == [:])
        #expect(try BackgroundTaskBeginResult(json: ["taskID": 4]) == BackgroundTaskBeginResult(taskID: 4))
        #expect(BackgroundTaskBeginResult(taskID: 4).json == ["taskID": 4])
        #expect(try BackgroundTaskEndParams(json: ["taskID": 4]).json == ["taskID": 4])
        #expect(try BackgroundTaskExpiringParams(json: ["taskID": 4]).json == ["taskID": 4])
    }

    @Test(arguments: [nil, "4", 0, -2, 4.5] as [JSONValue?])
    func backgroundTaskIDsMustBePositiveIntegers(taskID: JSONValue?) {
        let json = Wire.with([:], "taskID", taskID)
        #expect(Wire.rejectedField(BackgroundTaskBeginResult.init(json:), json) == "taskID")
        #expect(Wire.rejectedField(BackgroundTaskEndParams.init(json:), json) == "taskID")
        #expect(Wire.rejectedField(BackgroundTaskExpiringParams.init(json:), json) == "taskID")
    }

    @Test func backgroundTaskNameMustBeAString() {
        #expect(Wire.rejectedField(BackgroundTaskBeginParams.init(json:), ["name": 7]) == "name")
    }

    @Test func markParamsRoundTripAndCarryAnyObject() throws {
        let json: JSONValue = ["name": "state-saved", "data": ["items": 3, "nested": ["a": [1, nil]]]]
        let mark = try MarkParams(json: json)
        #expect(mark.name == "state-saved")
        #expect(mark.data?["items"] == 3)
        #expect(mark.json == json)
        #expect(try MarkParams(json: ["name": "x"]).json == ["name": "x"])
        #expect(try MarkParams(json: ["name": "x", "data": nil]) == MarkParams(name: "x"))
    }

    @Test(arguments: [
        (["data": [:]], "name"), (["name": ""], "name"), (["name": 1], "name"),
        (["name": "x", "data": [1]], "data"), (["name": "x", "data": "text"], "data"),
    ] as [(JSONValue, String)])
    func markParamsRejectAWrongFieldNamingIt(json: JSONValue, field: String) {
        #expect(Wire.rejectedField(MarkParams.init(json:), json) == field)
    }

    @Test func reportMemoryRoundTripsAndRejectsNegativeOrFractionalBytes() throws {
        #expect(try ReportMemoryParams(json: ["bytes": 123_456]) == ReportMemoryParams(bytes: 123_456))
        #expect(ReportMemoryParams(bytes: 123_456).json.jsonText == #"{"bytes":123456}"#)
        #expect(try ReportMemoryParams(json: ["bytes": 0]).bytes == 0)
        for bad: JSONValue in [-1, 1.5, "1", nil] {
            #expect(Wire.rejectedField(ReportMemoryParams.init(json:), Wire.with([:], "bytes", bad)) == "bytes")
        }
    }

    @Test func emptyResultIsAnEmptyObjectAndAcceptsOnlyObjects() throws {
        #expect(EmptyResult.json.jsonText == "{}")
        #expect(EmptyResult().json == EmptyResult.json)
        #expect(try EmptyResult(json: ["extra": 1]) == EmptyResult())
        #expect(throws: RPCError.self) { try EmptyResult(json: [1]) }
    }
}
