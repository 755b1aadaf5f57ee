import LifebusJSON
import LifebusProtocol
import Testing

/// Every numeric member a peer sends, at the edges (0, -0, fractions, 2^53, 2^63, 1e308, negative): each decodes
/// to an in-range value or is -32602 naming the member; nothing traps. The numbers go through the real parser, so
/// `9223372036854775808` is the double it becomes on the wire.
@Suite struct NumberEdgeWireTests {
    static let edges = [
        "0", "-0", "0.5", "1", "86400000", "86400000.5", "9.3e12", "1e13", "9007199254740992", "1e308",
        "9223372036854775807", "9223372036854775808", "-1", "-0.5", "-9223372036854775808", "-1e308",
    ]

    /// The members and what each accepts; `base` is a valid params object the edge is put into.
    struct Member: CustomTestStringConvertible, Sendable {
        let name: String
        let key: String
        let base: JSONValue
        let accepts: @Sendable (JSONValue) -> Bool
        let decode: @Sendable (JSONValue) throws(RPCError) -> Void
        var testDescription: String { name }
    }

    static func integer(_ value: JSONValue, _ range: ClosedRange<Int64>) -> Bool {
        guard case .integer(let number) = value else { return false }
        return range.contains(number)
    }

    static func double(_ value: JSONValue, _ range: ClosedRange<Double>) -> Bool {
        value.doubleValue.map(range.contains) ?? false
    }

    static let members: [Member] = [
        Member(name: "wait.timeoutMs", key: "timeoutMs", base: ["app": "com.x", "state": "active"],
               accepts: { double($0, 0...WaitParams.maxTimeoutMs) }, decode: { json throws(RPCError) in
                   _ = try WaitParams(json: json) }),
        Member(name: "callback.result.handlerMs", key: "handlerMs", base: [:],
               accepts: { double($0, 0...CallbackAnswer.maxHandlerMs) }, decode: { json throws(RPCError) in
                   _ = try CallbackAnswer(json: json) }),
        Member(name: "history.limit", key: "limit", base: [:],
               accepts: { integer($0, 1...Int64(HistoryParams.maxLimit)) }, decode: { json throws(RPCError) in
                   _ = try HistoryParams(json: json) }),
        Member(name: "history.beforeSeq", key: "beforeSeq", base: [:],
               accepts: { integer($0, 1...Int64.max) }, decode: { json throws(RPCError) in
                   _ = try HistoryParams(json: json) }),
        Member(name: "endBackgroundTask.taskID", key: "taskID", base: [:],
               accepts: { integer($0, 1...Int64.max) }, decode: { json throws(RPCError) in
                   _ = try BackgroundTaskEndParams(json: json) }),
        Member(name: "reportMemory.bytes", key: "bytes", base: [:],
               accepts: { integer($0, 0...Int64.max) }, decode: { json throws(RPCError) in
                   _ = try ReportMemoryParams(json: json) }),
        Member(name: "hello.protocolVersion", key: "protocolVersion", base: ["role": "controller"],
               accepts: { integer($0, 1...Int64.max) }, decode: { json throws(RPCError) in
                   _ = try HelloParams(json: json) }),
        Member(name: "callback.params.budgetMs", key: "budgetMs",
               base: ["callbackID": 1, "callback": "didBecomeActive", "state": "active"],
               accepts: { double($0, 0...Double.greatestFiniteMagnitude) }, decode: { json throws(RPCError) in
                   _ = try CallbackParams(json: json) }),
        Member(name: "backgroundTaskExpiring.taskID", key: "taskID", base: [:],
               accepts: { integer($0, 1...Int64.max) }, decode: { json throws(RPCError) in
                   _ = try BackgroundTaskExpiringParams(json: json) }),
    ]

    @Test(arguments: members, edges)
    func eachNumericMemberDecodesInRangeOrNamesItself(member: Member, edge: String) throws {
        let number = try JSONParser.parse(edge)
        let json = Wire.with(member.base, member.key, number)
        if member.accepts(number) {
            #expect(throws: Never.self) { try member.decode(json) }
        } else {
            #expect(Wire.rejectedField(member.decode, json) == member.key, "\(member.name) = \(edge)")
        }
    }

    @Test func theLimitsAreNamedInTheMessage() {
        do {
            _ = try WaitParams(json: ["app": "com.x", "state": "active", "timeoutMs": 9.3e12])
            Issue.record("9.3e12 ms was accepted")
        } catch {
            #expect(error.message.contains("at most 86400000"), "\(error.message)")
        }
    }
}
