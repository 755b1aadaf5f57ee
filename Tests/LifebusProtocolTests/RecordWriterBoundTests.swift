import LifebusJSON
import LifebusLifecycle
import PropertyBased
import Testing

@testable import LifebusProtocol

/// Every hand JSON writer (the direct writers of the records and answers the broker emits most, and the envelopes
/// around them) writes the same bytes as the general writer, `JSONValue.write(to:)`, and never more than the room it
/// reserves: on random records (`WireRecordGenerators`) and on the widest ones. The hand writers and the general one
/// format numbers through the same cursor, so the bytes compare equal (no parsed-value comparison needed). A run or
/// process record has no hand writer (`JournalEntry.write` sends it through the general one).
@Suite struct RecordWriterBoundTests {
    private static func text(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        write(&bytes)
        return bytes
    }

    /// The longest of each kind of name the writers copy.
    static let longestState = LifecycleState.allCases.max {
        $0.quotedJSON.utf8CodeUnitCount < $1.quotedJSON.utf8CodeUnitCount
    }!
    static let longestCallback = LifecycleCallback.allCases.max {
        $0.quotedJSON.utf8CodeUnitCount < $1.quotedJSON.utf8CodeUnitCount
    }!
    static let longestOutcome = TransitionOutcome.allCases.max {
        $0.quotedJSON.utf8CodeUnitCount < $1.quotedJSON.utf8CodeUnitCount
    }!
    /// A string whose every byte escapes to six, as long as the generators make them.
    static let widestString = String(repeating: "\u{01}", count: WireRecordGenerators.maxStringBytes)
    /// The longest double texts (24 bytes) and integer texts (20 bytes).
    static let widestDouble = -2.2250738585072014e-308
    static let widestCause = EventCause(eventID: .min, event: widestString)
    static let widestTransition = TransitionRecord(
        seq: .min, app: widestString, pid: .min, callback: longestCallback, cause: widestCause, from: longestState,
        to: longestState, firedMs: widestDouble, sentMs: widestDouble, answeredMs: widestDouble,
        handlerMs: widestDouble, budgetMs: widestDouble, outcome: longestOutcome, wallMs: .min, handlerFailed: false)

    static let transitions = Generator { WireRecordGenerators.transition(&$0) }
    static let journaledTransitions = Generator { WireRecordGenerators.journaledTransition(&$0) }
    static let marks = Generator { WireRecordGenerators.mark(&$0) }
    static let callbackParams = Generator { rng in
        (WireRecordGenerators.callbackParams(&rng), WireRecordGenerators.id(&rng))
    }
    static let fireResults = Generator { rng in
        (WireRecordGenerators.fireResult(&rng), Bool.random(using: &rng) ? WireRecordGenerators.id(&rng) : nil)
    }
    static let pings = Generator { rng in
        (WireRecordGenerators.integer(&rng), Bool.random(using: &rng) ? WireRecordGenerators.id(&rng) : nil)
    }

    private func expectTransitionWritesItsJSONWithinItsBound(_ record: TransitionRecord) {
        let written = Self.text(record.write)
        #expect(written == record.json.jsonBytes)
        #expect(written.count <= record.writtenBound)
        #expect(Self.text(JournalEntry.transition(record).write) == written)
        if let cause = record.cause {
            let causeText = Self.text(cause.write)
            #expect(causeText == cause.json.jsonBytes)
            #expect(causeText.count <= EventCause.writtenBound(cause))
        }
    }

    @Test func aTransitionRecordWritesItsJSONWithinItsBound() async {
        await propertyCheck(count: 500, input: Self.transitions) { expectTransitionWritesItsJSONWithinItsBound($0) }
        expectTransitionWritesItsJSONWithinItsBound(Self.widestTransition)
    }

    /// The one-pass path: a transition written from its integer times gives its record's bytes (the general
    /// writer's and the record's own writer's), within the same bound, and its record gives it back (below 2^53 ns).
    private func expectJournaledTransitionWritesItsRecordsJSON(_ transition: JournaledTransition) {
        let written = Self.text(transition.write)
        let record = transition.record
        #expect(written == record.json.jsonBytes)
        #expect(written == Self.text(record.write))
        #expect(written.count <= transition.writtenBound)
        #expect(transition.writtenBound == record.writtenBound)
        // Below 2^53 nanoseconds each time is its own double, so the record gives the integers back.
        let times = [transition.firedNs, transition.sentNs, transition.answeredNs, transition.handlerNs,
                     transition.budgetNs]
        if times.allSatisfy({ ($0 ?? 0).magnitude < 1 << 53 }) {
            #expect(JournaledTransition(exactly: record) == transition)
        }
    }

    @Test func aJournaledTransitionWritesItsRecordsJSONWithinItsBound() async {
        await propertyCheck(count: 500, input: Self.journaledTransitions) {
            expectJournaledTransitionWritesItsRecordsJSON($0)
        }
        let widest = JournaledTransition(
            seq: .min, app: Self.widestString, pid: .min, callback: Self.longestCallback, cause: Self.widestCause,
            from: Self.longestState, to: Self.longestState, firedNs: .min, sentNs: .min, answeredNs: .min,
            handlerNs: .min, budgetNs: .min, outcome: Self.longestOutcome, wallMs: .min, handlerFailed: false)
        expectJournaledTransitionWritesItsRecordsJSON(widest)
    }

    /// Milliseconds written from whole nanoseconds are the text of `Double(nanoseconds) / 1e6`, on many clock
    /// readings and at every edge of the integer path.
    @Test func millisecondsFromNanosecondsAreTheDoublesText() {
        var rng = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for _ in 0..<50_000 where mismatches.count < 5 {
            let nanoseconds = WireRecordGenerators.nanoseconds(&rng)
            let transition = JournaledTransition(
                seq: 1, app: "a", pid: nil, callback: nil, cause: nil, from: .active, to: .active, firedNs: nil,
                sentNs: nanoseconds, answeredNs: nil, handlerNs: nil, budgetNs: nanoseconds, outcome: .ok, wallMs: 0)
            let written = Self.text(transition.write)
            if written != transition.record.json.jsonBytes {
                mismatches.append("\(nanoseconds) ns: \(String(decoding: written, as: UTF8.self))")
            }
        }
        #expect(mismatches.isEmpty)
    }

    private func expectMarkWritesItsJSONWithinItsBounds(_ mark: MarkRecord) {
        let written = Self.text(mark.write)
        #expect(written == mark.json.jsonBytes)
        #expect(Self.text(JournalEntry.mark(mark).write) == written)
        let dataCount = mark.data.map { JSONValue.object($0).jsonBytes.count } ?? 4
        let tail = Array(#","atMs":"#.utf8) + JSONValue.double(mark.atMs).jsonBytes + Array(#","wallMs":"#.utf8)
            + JSONValue.integer(mark.wallMs).jsonBytes + [UInt8(ascii: "}")]
        #expect(written.suffix(tail.count).elementsEqual(tail))
        #expect(tail.count <= MarkRecord.tailBound)
        #expect(written.count - dataCount - tail.count <= mark.headBound)
    }

    @Test func aMarkRecordWritesItsJSONWithinItsBounds() async {
        await propertyCheck(count: 500, input: Self.marks) { expectMarkWritesItsJSONWithinItsBounds($0) }
        expectMarkWritesItsJSONWithinItsBounds(MarkRecord(
            seq: .min, app: Self.widestString, pid: .min, name: Self.widestString, data: nil, atMs: Self.widestDouble,
            wallMs: .min))
    }

    private func expectCallbackWritesItsJSONWithinItsBounds(_ params: CallbackParams, id: RPCID) {
        let written = Self.text(params.write)
        #expect(written == params.json.jsonBytes)
        let launchCount = params.launch.map { #","launch":"#.utf8.count + $0.json().jsonBytes.count + 1 } ?? 0
        #expect(written.count - launchCount <= params.headBound)

        var direct: [UInt8] = []
        params.writeRequest(id: id, to: &direct)
        var general: [UInt8] = []
        RPCCodec.encode(RPCRequest(id: id, method: params.callback.rawValue, params: params.json), to: &general)
        #expect(direct == general)
        #expect(direct.count - written.count - 1 <= RPCCodec.requestHeadBound(id: id))
    }

    @Test func callbackParamsAndTheirRequestWriteTheirJSONWithinTheirBounds() async {
        await propertyCheck(count: 500, input: Self.callbackParams) {
            expectCallbackWritesItsJSONWithinItsBounds($0.0, id: $0.1)
        }
        let widest = CallbackParams(
            callbackID: .min, callback: Self.longestCallback, state: Self.longestState, budgetMs: Self.widestDouble,
            cause: Self.widestCause, launch: LaunchContext(reason: .afterTerminate, previousPid: .min,
                                                           previousEnding: Self.widestString))
        expectCallbackWritesItsJSONWithinItsBounds(widest, id: .string(Self.widestString))
        expectCallbackWritesItsJSONWithinItsBounds(widest, id: .number(.min))
    }

    private func expectFireResultWritesItsJSONWithinItsBounds(_ result: FireResult, id: RPCID?) {
        let written = Self.text(result.write)
        #expect(written == result.json.jsonBytes)
        let head = Self.text {
            FireResult.writeHead(eventID: result.eventID, event: result.event, completed: result.completed, to: &$0)
        }
        #expect(written.starts(with: head))
        #expect(head.count <= FireResult.headBound(event: result.event))
        #expect(written.count - head.count <= result.recordsBound)

        let recordsText = result.transitions.map { Self.text($0.write) }.joined(separator: [UInt8(ascii: ",")])
        let broker = WrittenFireResult(eventID: result.eventID, event: result.event, completed: result.completed,
                                       transitionCount: result.transitions.count, transitionsText: Array(recordsText))
        #expect(Self.text(broker.write) == written)

        var envelope: [UInt8] = []
        RPCCodec.encodeSuccess(id: id, to: &envelope, writingResult: broker.write)
        var general: [UInt8] = []
        RPCCodec.encode(RPCResponse(id: id, result: .success(result.json)), to: &general)
        #expect(envelope == general)
        #expect(envelope.count - written.count - 1 <= RPCCodec.responseHeadBound(id: id))
    }

    @Test func aFireAnswerAndItsEnvelopeWriteTheirJSONWithinTheirBounds() async {
        await propertyCheck(count: 300, input: Self.fireResults) {
            expectFireResultWritesItsJSONWithinItsBounds($0.0, id: $0.1)
        }
        let widest = FireResult(eventID: .min, event: Self.widestString, completed: false,
                                transitions: [Self.widestTransition, Self.widestTransition])
        expectFireResultWritesItsJSONWithinItsBounds(widest, id: .string(Self.widestString))
        expectFireResultWritesItsJSONWithinItsBounds(widest, id: nil)
    }

    private func expectPingWritesItsJSONWithinItsBound(_ brokerTime: Int64, id: RPCID?) {
        let result = PingResult(brokerTime: brokerTime)
        let written = Self.text(result.write)
        #expect(written == result.json.jsonBytes)
        #expect(written.count <= PingResult.writtenBound)
        var envelope: [UInt8] = []
        RPCCodec.encodeSuccess(id: id, to: &envelope, writingResult: result.write)
        var general: [UInt8] = []
        RPCCodec.encode(RPCResponse(id: id, result: .success(result.json)), to: &general)
        #expect(envelope == general)
    }

    @Test func aPingAnswerWritesItsJSONWithinItsBound() async {
        await propertyCheck(count: 300, input: Self.pings) { expectPingWritesItsJSONWithinItsBound($0.0, id: $0.1) }
        expectPingWritesItsJSONWithinItsBound(.min, id: .number(.min))
    }
}
