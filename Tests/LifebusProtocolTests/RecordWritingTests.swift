import LifebusJSON
import LifebusLifecycle
@testable import LifebusProtocol
import Testing

/// The direct record writers must write exactly what the `JSONValue` form writes, member for member.
@Suite struct RecordWritingTests {
    static let full = TransitionRecord(
        seq: 17, app: "com.example.Deep\"Thoughts", pid: 1234, callback: .didEnterBackground,
        cause: EventCause(eventID: 3, event: "call --answer"), from: .inactive, to: .background,
        firedMs: 10.5, sentMs: 10.625, answeredMs: 13.1, handlerMs: 2.3e-5, budgetMs: 5000, outcome: .ok,
        wallMs: 1_763_780_000_000)
    /// The most room each member can take: every byte of the strings escaped as `\u00XX`, the longest numbers and
    /// names; the writers reserve their room from bounds, so this must fit exactly.
    static let widest = TransitionRecord(
        seq: .min, app: String(repeating: "\u{01}", count: 300), pid: .min, callback: .didReceiveMemoryWarning,
        cause: EventCause(eventID: .min, event: String(repeating: "\u{7F}", count: 300)), from: .background,
        to: .notRunning, firedMs: -.leastNormalMagnitude, sentMs: -.greatestFiniteMagnitude,
        answeredMs: -2.2250738585072014e-308, handlerMs: -1.2345678901234567e-300, budgetMs: -.ulpOfOne,
        outcome: .watchdog, wallMs: .min, handlerFailed: true)
    static let bare = TransitionRecord(
        seq: 18, app: "a", pid: nil, callback: nil, cause: nil, from: .suspended, to: .notRunning,
        firedMs: nil, sentMs: 0, answeredMs: nil, handlerMs: nil, budgetMs: 0, outcome: .jetsam, wallMs: 0)

    private func text(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        write(&bytes)
        return bytes
    }

    @Test(arguments: [full, bare, widest])
    func aTransitionRecordWritesWhatItsJSONWrites(record: TransitionRecord) {
        #expect(text(record.write) == record.json.jsonBytes)
        #expect(text(JournalEntry.transition(record).write) == JournalEntry.transition(record).json.jsonBytes)
    }

    /// A cause's text is written when the value is made: changing its id or label writes it again.
    @Test func aCauseWritesWhatItsJSONWritesAfterEachChange() {
        var cause = EventCause(eventID: 3, event: "home")
        var written: [UInt8] = []
        cause.write(to: &written)
        #expect(written == cause.json.jsonBytes)
        cause.event = "call \"--answer\"\u{7F}"
        cause.eventID = .min
        written = []
        cause.write(to: &written)
        #expect(written == cause.json.jsonBytes)
        #expect(cause == EventCause(eventID: .min, event: "call \"--answer\"\u{7F}"))
        #expect(cause != EventCause(eventID: .min, event: "call"))
        #expect(EventCause.writtenBound(cause) <= EventCause.writtenBound(event: cause.event))
    }

    @Test func aMarkRecordWritesWhatItsJSONWrites() {
        let marks = [
            MarkRecord(seq: 1, app: "x", pid: 7, name: "state-saved", data: ["thought": 2, "path": "/tmp/a\nb"],
                       atMs: 14.2, wallMs: 99),
            MarkRecord(seq: 2, app: "x", pid: nil, name: "n", data: nil, atMs: 0, wallMs: 0),
        ]
        for mark in marks {
            #expect(text(mark.write) == mark.json.jsonBytes)
        }
    }

    @Test(arguments: [[], [full], [full, bare]])
    func aFireResultWritesWhatItsJSONWrites(transitions: [TransitionRecord]) throws {
        let result = FireResult(eventID: 3, event: "call --answer", completed: true, transitions: transitions)
        #expect(text(result.write) == result.json.jsonBytes)
        #expect(try FireResult(json: JSONParser.parse(text(result.write))) == result)
    }

    @Test func aFireResultOfTheWidestRecordsWritesWhatItsJSONWrites() {
        let result = FireResult(eventID: .min, event: Self.widest.cause?.event ?? "", completed: false,
                                transitions: [Self.widest, Self.full, Self.widest])
        #expect(text(result.write) == result.json.jsonBytes)
    }

    /// The broker's form of the answer (its records only as the journal's text) writes what `FireResult` writes.
    @Test(arguments: [[], [full], [full, bare, widest]], [true, false])
    func aWrittenFireResultWritesWhatTheFireResultWrites(transitions: [TransitionRecord], completed: Bool) {
        let recordsText = transitions.map { text($0.write) }.joined(separator: [UInt8(ascii: ",")])
        let written = WrittenFireResult(eventID: 3, event: "call \"x\" é", completed: completed,
                                        transitionCount: transitions.count, transitionsText: Array(recordsText))
        let result = FireResult(eventID: 3, event: "call \"x\" é", completed: completed, transitions: transitions)
        #expect(text(written.write) == result.json.jsonBytes)
        #expect(written.noApp == result.noApp)
        var spliced: [UInt8] = []
        written.writeHead(to: &spliced)
        spliced += written.transitionsText
        written.writeTail(to: &spliced)
        #expect(spliced == text(written.write))
        #expect(text(WrittenFireResult(eventID: 3, event: "m", completed: false).write)
            == FireResult(eventID: 3, event: "m", completed: false).json.jsonBytes)
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 1_763_780_000_123_456_789, .max])
    func aPingResultWritesWhatItsJSONWrites(brokerTime: Int64) throws {
        let result = PingResult(brokerTime: brokerTime)
        #expect(text(result.write) == result.json.jsonBytes)
        #expect(try PingResult(json: JSONParser.parse(text(result.write))) == result)
    }

    @Test(arguments: [
        CallbackParams(callbackID: 12, callback: .didEnterBackground, state: .background, budgetMs: 5000,
                       cause: EventCause(eventID: 3, event: "call --answer")),
        CallbackParams(callbackID: .min, callback: .didReceiveMemoryWarning, state: .background,
                       budgetMs: -.greatestFiniteMagnitude, cause: Self.widest.cause),
        CallbackParams(callbackID: 1, callback: .didFinishLaunching, state: .inactive, budgetMs: 20_000.5,
                       launch: LaunchContext(reason: .afterCrash, previousPid: 7)),
    ])
    func callbackParamsWriteWhatTheirJSONWrites(params: CallbackParams) {
        #expect(text(params.write) == params.json.jsonBytes)
        var direct: [UInt8] = []
        params.writeRequest(id: .number(4), to: &direct)
        var viaValue: [UInt8] = []
        let request = RPCRequest(id: .number(4), method: params.callback.rawValue, params: params.json)
        RPCCodec.encode(request, to: &viaValue)
        #expect(direct == viaValue)
    }

    /// The writers copy each lifecycle name's quoted text from a constant and reserve `JSONCursor.nameBound` for
    /// it: every constant must be the quoted raw value, plain ASCII that fits.
    @Test func everyLifecycleNameIsItsQuotedRawValueAndFitsTheNameBound() {
        let names = LifecycleState.allCases.map { ($0.rawValue, $0.quotedJSON) }
            + LifecycleCallback.allCases.map { ($0.rawValue, $0.quotedJSON) }
            + TransitionOutcome.allCases.map { ($0.rawValue, $0.quotedJSON) }
        for (name, quoted) in names {
            #expect(quoted.description == JSONValue.string(name).jsonText)
            #expect(quoted.utf8CodeUnitCount <= 48 && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        }
    }

    @Test func aSuccessWithAWrittenResultIsTheSameResponse() {
        let result = FireResult(eventID: 1, event: "home", completed: false)
        var direct: [UInt8] = []
        RPCCodec.encodeSuccess(id: .number(9), to: &direct, writingResult: result.write)
        var viaValue: [UInt8] = []
        RPCCodec.encode(RPCResponse(id: .number(9), result: .success(result.json)), to: &viaValue)
        #expect(direct == viaValue)
    }
}
