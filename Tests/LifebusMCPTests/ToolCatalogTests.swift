import LifebusExpectation
import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusMCP

/// What `tools/list` promises and how tool errors look.
@Suite struct ToolCatalogTests {
    @Test func everyToolHasATitleADescriptionAndAnObjectSchemaWhoseRequiredArgumentsExist() throws {
        let tools = MCPToolCatalog.tools
        #expect(tools.compactMap { $0["name"]?.stringValue } == [
            "fire", "launch", "scene", "status", "protected_data", "wait_for_state", "history", "advance_clock",
            "timeline", "install", "uninstall", "reset", "expect", "coverage", "run_scenario",
        ])
        for tool in tools {
            let schema = try #require(tool["inputSchema"])
            #expect(schema["type"] == "object")
            let properties = try #require(schema["properties"]?.objectValue)
            for required in schema["required"]?.arrayValue ?? [] {
                #expect(properties[required.stringValue ?? ""] != nil, "\(tool["name"]!) requires \(required)")
            }
            #expect((tool["description"]?.stringValue?.count ?? 0) > 60)
            #expect(tool["title"]?.stringValue != nil)
        }
    }

    @Test func expectListsEveryCallbackStateAndOutcomeItChecks() throws {
        let properties = MCPToolCatalog.definition(.expect)["inputSchema"]?["properties"]
        #expect(properties?["callbacks"]?["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
            == LifecycleCallback.allCases.map(\.rawValue))
        #expect(properties?["outcome"]?["enum"]?.arrayValue?.compactMap(\.stringValue) == Verdict.names)
        #expect(properties?["state"]?["anyOf"]?[0]?["enum"]?.arrayValue?.compactMap(\.stringValue)
            == LifecycleState.allCases.map(\.rawValue))
    }

    @Test func fireListsEveryEventActionAndLevelTheBrokerAccepts() throws {
        let fire = MCPToolCatalog.definition(.fire)
        let properties = fire["inputSchema"]?["properties"]
        let events = properties?["event"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(events == FireParams.FireEvent.allCases.map(\.rawValue))
        let actions = properties?["action"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(actions == FireParams.Action.allCases.map(\.rawValue))
        #expect(properties?["level"]?["enum"] == .array(MemoryWarningLevel.allCases.map { .string($0.rawValue) }))
    }

    @Test func aToolErrorCarriesTheBrokersErrorName() {
        let error = RPCError(.eventRejected, "terminate --app X: no such app", data: ["reason": "unknownApp"])
        let result = ToolResult.failure(error)
        #expect(result["isError"] == true)
        #expect(result["structuredContent"]?["error"]?["name"] == "lifebus.EventRejected")
        #expect(result["structuredContent"]?["error"]?["data"]?["reason"] == "unknownApp")
        let text = result["content"]?[0]?["text"]?.stringValue ?? ""
        #expect(text.hasPrefix("lifebus.EventRejected: ") && text.contains("(reason: unknownApp)"))
    }

    @Test func fireNamesEveryOutcomeATransitionCanHave() {
        let description = MCPToolCatalog.definition(.fire)["description"]?.stringValue ?? ""
        for outcome in TransitionOutcome.allCases {
            #expect(description.contains(outcome.rawValue), "the fire tool's outcomes lack \(outcome)")
        }
    }

    @Test func aLaunchThatTimedOutIsATimeoutWithWhatToDo() {
        let error = RPCError(.timedOut, "launch com.example.Mute: com.example.Mute did not connect within its "
            + "launch budget (20s)", data: ["reason": "launchTimedOut", "eventID": 3, "app": "com.example.Mute",
                                            "budgetMs": 20_000])
        let result = ToolResult.failure(error)
        #expect(result["isError"] == true)
        #expect(result["structuredContent"]?["error"]?["name"] == "lifebus.TimedOut")
        let text = result["content"]?[0]?["text"]?.stringValue ?? ""
        #expect(text.hasPrefix("lifebus.TimedOut: ") && text.contains("(reason: launchTimedOut)"), "\(text)")
        #expect(text.contains("A timeout, not a refusal") && text.contains("lifebus subscribe --id com.example.Mute"),
                "\(text)")
    }

    @Test func aSuccessWrapsANonObjectInStructuredContent() {
        let result = ToolResult.success("three", structured: 3)
        #expect(result["isError"] == false)
        #expect(result["structuredContent"] == ["result": 3])
    }
}
