import LifebusJSON
import LifebusProtocol
import Testing

/// Journal records, the journal entry that wraps them, and the error details of `fire` and `wait`.
@Suite struct RecordWireTypeTests {
    @Test func transitionRecordRoundTripsTheContractExample() throws {
        let record = try TransitionRecord(json: Wire.transition)
        #expect(record == Wire.transitionRecord)
        #expect(record.json == Wire.transition)
        #expect(record.json.jsonText == #"{"type":"transition","seq":17,"app":"com.example.DeepThoughts","#
            + #""pid":1234,"callback":"didEnterBackground","cause":{"eventID":3,"event":"call --answer"},"#
            + #""from":"inactive","to":"background","firedMs":10.5,"sentMs":10.6,"answeredMs":13.1,"handlerMs":2.3,"#
            + #""budgetMs":5000.0,"outcome":"ok","handlerFailed":false,"wallMs":1763780000000}"#)
    }

    @Test func transitionRecordWritesNullForItsAbsentMembers() throws {
        var record = Wire.transitionRecord
        record.pid = nil
        record.callback = nil
        record.cause = nil
        record.firedMs = nil
        record.answeredMs = nil
        record.handlerMs = nil
        record.outcome = .jetsam
        for key in ["pid", "callback", "cause", "firedMs", "answeredMs", "handlerMs"] {
            #expect(record.json[key] == .null, "\(key)")
        }
        #expect(try TransitionRecord(json: record.json) == record)
    }

    @Test(arguments: [
        ("type", "mark", "type"), ("seq", nil, "seq"), ("seq", 0, "seq"), ("app", nil, "app"),
        ("pid", "1234", "pid"), ("pid", 5_000_000_000, "pid"), ("callback", "didSleep", "callback"),
        ("cause", ["eventID": 3], "cause.event"), ("from", nil, "from"), ("to", "gone", "to"),
        ("firedMs", "x", "firedMs"), ("sentMs", nil, "sentMs"), ("answeredMs", -1, "answeredMs"),
        ("handlerMs", [], "handlerMs"), ("budgetMs", nil, "budgetMs"), ("outcome", "fine", "outcome"),
        ("outcome", nil, "outcome"), ("wallMs", 1.5, "wallMs"), ("wallMs", nil, "wallMs"),
    ] as [(String, JSONValue?, String)])
    func transitionRecordRejectsAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        #expect(Wire.rejectedField(TransitionRecord.init(json:), Wire.with(Wire.transition, key, value)) == field)
    }

    @Test func markRecordRoundTrips() throws {
        let record = try MarkRecord(json: Wire.mark)
        #expect(record == MarkRecord(
            seq: 18, app: "com.example.DeepThoughts", pid: 1234, name: "state-saved", data: ["items": 3],
            atMs: 14.2, wallMs: 1_763_780_000_001
        ))
        #expect(record.json == Wire.mark)
        let bare = MarkRecord(seq: 1, app: "com.x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0)
        #expect(bare.json.jsonText
            == #"{"type":"mark","seq":1,"app":"com.x","pid":null,"name":"m","data":null,"atMs":0.0,"wallMs":0}"#)
        #expect(try MarkRecord(json: bare.json) == bare)
    }

    @Test(arguments: [
        ("type", "transition", "type"), ("seq", -1, "seq"), ("app", 1, "app"), ("pid", true, "pid"),
        ("name", nil, "name"), ("data", [1], "data"), ("atMs", nil, "atMs"), ("wallMs", "now", "wallMs"),
    ] as [(String, JSONValue?, String)])
    func markRecordRejectsAWrongFieldNamingIt(key: String, value: JSONValue?, field: String) {
        #expect(Wire.rejectedField(MarkRecord.init(json:), Wire.with(Wire.mark, key, value)) == field)
    }

    @Test func journalEntryDecodesByType() throws {
        #expect(try JournalEntry(json: Wire.transition) == .transition(Wire.transitionRecord))
        let mark = try JournalEntry(json: Wire.mark)
        guard case .mark(let record) = mark else {
            Issue.record("expected a mark, got \(mark)")
            return
        }
        #expect(record.name == "state-saved")
        #expect(mark.json == Wire.mark)
        #expect(mark.seq == 18)
        #expect(mark.app == "com.example.DeepThoughts")
        #expect(Wire.rejectedField(JournalEntry.init(json:), Wire.with(Wire.mark, "type", nil)) == "type")
        #expect(Wire.rejectedField(JournalEntry.init(json:), Wire.with(Wire.mark, "type", "note")) == "type")
    }

    @Test func eventRejectionCarriesReasonAndEventID() throws {
        let error = EventRejection(reason: .appNotRunning, eventID: 3).error("com.x is not running")
        #expect(error.code == -32008)
        #expect(error.data == ["name": "lifebus.EventRejected", "reason": "appNotRunning", "eventID": 3])
        #expect(EventRejection(error) == EventRejection(reason: .appNotRunning, eventID: 3))
        #expect(EventRejection(.invalidParams("x")) == nil)
    }

    @Test func waitTimeoutCarriesTheStateAndAtMostFiveTransitions() throws {
        var records: [TransitionRecord] = []
        for seq in 1...7 {
            var record = Wire.transitionRecord
            record.seq = Int64(seq)
            records.append(record)
        }
        let error = WaitTimeout(state: .inactive, transitions: records).error("still inactive")
        #expect(error.code == -32010)
        #expect(error.name == "lifebus.TimedOut")
        #expect(error.data?["state"] == "inactive")
        let decoded = try #require(WaitTimeout(error))
        #expect(decoded.state == .inactive)
        #expect(decoded.transitions.map(\.seq) == [3, 4, 5, 6, 7])
        #expect(WaitTimeout(RPCError(.timedOut, "x")) == nil)
    }
}

@Suite("a failed handler in answers and records")
struct HandlerFailedWireTests {
    @Test func aCallbackAnswerCarriesHandlerFailedOnlyWhenTrue() throws {
        #expect(CallbackAnswer(handlerMs: 1).json == ["handlerMs": 1.0])
        #expect(CallbackAnswer(handlerMs: 1, handlerFailed: true).json == ["handlerMs": 1.0, "handlerFailed": true])
        #expect(try CallbackAnswer(json: ["handlerFailed": true]).handlerFailed)
        #expect(try !CallbackAnswer(json: [:]).handlerFailed)
    }

    @Test func aRecordWithoutHandlerFailedReadsAsFalseAndAFailedOneRoundTrips() throws {
        guard case .object(var object) = Wire.transition else { Issue.record("not an object"); return }
        object["handlerFailed"] = nil
        #expect(try !TransitionRecord(json: .object(object)).handlerFailed)
        var failed = Wire.transitionRecord
        failed.handlerFailed = true
        #expect(try TransitionRecord(json: failed.json) == failed)
        var bytes: [UInt8] = []
        failed.write(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == failed.json.jsonText)
    }
}
