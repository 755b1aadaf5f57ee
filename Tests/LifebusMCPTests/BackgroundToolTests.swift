import LifebusExpectation
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusTimeline
import Testing

@testable import LifebusMCP

/// The background life in the tools (issue 28): `fire`'s bgtask and push with their members, `protected_data`,
/// `expect`'s task and push checks, the timeline picture's width.
@Suite struct BackgroundToolTests {
    private static func argument(_ name: String, of tool: MCPToolCatalog.Name) -> JSONValue? {
        MCPToolCatalog.definition(tool)["inputSchema"]?["properties"]?[name]
    }

    @Test func fireSaysWhatBgtaskAndPushTakeFromTheirDeclarations() throws {
        let description = try #require(MCPToolCatalog.definition(.fire)["description"]?.stringValue)
        let bgtask = FireEvent.bgtask.declaration.actions.map(\.rawValue).joined(separator: ", ")
        let push = FireEvent.push.declaration.actions.map(\.rawValue).joined(separator: ", ")
        #expect(description.contains("bgtask (\(bgtask); needs app; identifier required"), "\(description)")
        #expect(description.contains("push (\(push); needs app; payload"), "\(description)")
        #expect(description.contains("content-available"))
        #expect(Self.argument("identifier", of: .fire)?["pattern"] == "^[A-Za-z0-9._-]{1,255}$")
        #expect(Self.argument("payload", of: .fire)?["type"] == "object")
        let actions = Self.argument("action", of: .fire)?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(["run", "cancel", "silent", "alert"].allSatisfy(actions.contains))
        for event in FireEvent.allCases where !MCPToolCatalog.members(of: event).isEmpty {
            #expect(description.contains(MCPToolCatalog.members(of: event)[0]), "\(event)")
        }
    }

    @Test func everyMemberTheFireToolNamesIsAnArgumentItForwards() {
        let properties = MCPToolCatalog.definition(.fire)["inputSchema"]?["properties"]?.objectValue
        for name in ["identifier", "payload", "url", "push", "scene", "session", "activity"] {
            #expect(properties?[name] != nil, "\(name)")
        }
    }

    @Test func protectedDataIsAReadOnlyToolWithoutArguments() {
        let tool = MCPToolCatalog.definition(.protectedData)
        #expect(tool["name"] == "protected_data")
        #expect(tool["inputSchema"]?["properties"] == .object([:]))
        #expect(tool["annotations"]?["readOnlyHint"] == true)
        #expect(tool["description"]?.stringValue?.contains("EPERM") == true)
    }

    @Test func expectListsEveryTaskStepAndFetchResult() {
        #expect(Self.argument("taskEvent", of: .expect)?["enum"]?.arrayValue?.compactMap(\.stringValue)
            == BackgroundTaskRecord.Event.allCases.map(\.rawValue))
        #expect(Self.argument("pushResult", of: .expect)?["enum"]?.arrayValue?.compactMap(\.stringValue)
            == BackgroundFetchResult.allCases.map(\.rawValue))
        #expect(Self.argument("taskSuccess", of: .expect)?["type"] == "boolean")
    }

    @Test func backgroundChecksAreRefusedWithoutWhatTheyNeed() {
        #expect(throws: RPCError.self) { try BackgroundExpectation(["taskEvent": "expired"]) }
        #expect(throws: RPCError.self) { try BackgroundExpectation(["task": "a b", "taskEvent": "expired"]) }
        #expect(throws: RPCError.self) { try BackgroundExpectation(["task": "r", "taskEvent": "gone"]) }
        #expect(throws: RPCError.self) { try BackgroundExpectation(["task": "r", "taskEvent": "expired",
                                                                    "taskSuccess": true]) }
        #expect(throws: RPCError.self) { try BackgroundExpectation(["pushResult": "lots"]) }
        #expect(throws: RPCError.self) { try ExpectRequest(["app": "A"]) }
        #expect(throws: Never.self) { try ExpectRequest(["app": "A", "task": "r"]) }
    }

    private static func task(_ seq: Int64, _ event: BackgroundTaskRecord.Event, success: Bool? = nil) -> JournalEntry {
        .task(BackgroundTaskRecord(seq: seq, app: "A", pid: 1, identifier: "refresh", kind: .appRefresh, event: event,
                                   success: success, atMs: 0, wallMs: 0))
    }

    private static func push(_ seq: Int64, _ event: PushDeliveryRecord.Event, _ result: BackgroundFetchResult?)
        -> JournalEntry {
        .push(PushDeliveryRecord(seq: seq, app: "A", pid: 1, event: event, result: result, payload: "{}", atMs: 0,
                                 wallMs: 0))
    }

    @Test func aTaskCheckReadsTheTasksLastStepAndAPushCheckTheLastAnswer() throws {
        let entries = [Self.task(1, .launched), Self.task(2, .expiring), Self.task(3, .expired),
                       Self.push(4, .delivered, nil), Self.push(5, .answered, .newData), Self.push(6, .delivered, nil)]
        let expired = try BackgroundExpectation(["task": "refresh", "taskEvent": "expired", "pushResult": "newData"])
        #expect(expired.check(entries).map(\.passed) == [true, true])
        let completed = try BackgroundExpectation(["task": "refresh", "taskEvent": "completed", "taskSuccess": true])
        let failed = completed.check(entries)
        #expect(failed == [Expectation.Result(check: "task refresh", expected: "completed true", recorded: "expired",
                                              passed: false)])
        let succeeded = completed.check([Self.task(1, .launched), Self.task(2, .completed, success: true)])
        #expect(succeeded.map(\.passed) == [true])
        let other = try BackgroundExpectation(["task": "clean", "pushResult": "failed"])
        #expect(other.check(entries).map(\.recorded) == ["no step", "answered newData"])
        #expect(other.check(entries).map(\.passed) == [false, false])
    }

    @Test func theTimelinesWidthIsWholePixelsWithinThePicturesBoundsForSvgOnly() throws {
        #expect(try ToolCall.svgWidth(nil, format: "text") == SVGTimeline.defaultWidth)
        #expect(try ToolCall.svgWidth(.integer(900), format: "svg") == 900)
        #expect(throws: RPCError.self) { try ToolCall.svgWidth(.integer(900), format: "text") }
        #expect(throws: RPCError.self) { try ToolCall.svgWidth(.integer(10), format: "svg") }
        #expect(throws: RPCError.self) { try ToolCall.svgWidth(.double(900.5), format: "svg") }
        #expect(throws: RPCError.self) { try ToolCall.svgWidth("wide", format: "svg") }
        let width = MCPToolCatalog.definition(.timeline)["inputSchema"]?["properties"]?["width"]
        #expect(width?["minimum"] == .integer(Int64(SVGTimeline.minimumWidth)))
        #expect(width?["maximum"] == .integer(Int64(SVGTimeline.maximumWidth)))
    }
}
