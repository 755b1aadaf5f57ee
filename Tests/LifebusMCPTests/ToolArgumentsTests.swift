import LifebusJSON
import LifebusProtocol
import Testing

@testable import LifebusMCP

/// Every tool holds its arguments to the schema it declares in `tools/list` (`ToolArguments`): a member it does not
/// take is refused naming it, with what it takes and the closest name; a member of the wrong JSON type is refused
/// naming it; what it declares, of the declared type, passes.
@Suite struct ToolArgumentsTests {
    private static func refusal(_ arguments: JSONObject, of tool: MCPToolCatalog.Name) -> RPCError? {
        do throws(RPCError) {
            try ToolArguments.check(arguments, of: tool)
            return nil
        } catch {
            return error
        }
    }

    private static func properties(of tool: MCPToolCatalog.Name) -> JSONObject {
        MCPToolCatalog.definition(tool)["inputSchema"]?["properties"]?.objectValue ?? [:]
    }

    /// A value of the type `schema` declares (its first `anyOf` form's), or `nil` for a schema without one.
    private static func sample(_ schema: JSONValue) -> JSONValue? {
        if let first = schema["anyOf"]?[0] { return sample(first) }
        return switch schema["type"]?.stringValue {
        case "string": "x"
        case "integer": 1
        case "number": 1.5
        case "boolean": true
        case "object": [:]
        case "array": []
        default: nil
        }
    }

    @Test func everyToolRefusesAnArgumentItDoesNotTakeNamingItAndWhatItTakes() throws {
        for tool in MCPToolCatalog.Name.allCases {
            let error = try #require(Self.refusal(["bogusArgument": 1], of: tool), "\(tool) took bogusArgument")
            #expect(error.code == RPCError.invalidParamsCode)
            #expect(error.name == "jsonrpc.InvalidParams")
            #expect(error.message.contains("\(tool.rawValue) does not take 'bogusArgument'"), "\(error.message)")
            #expect(error.data?["field"] == "bogusArgument")
            #expect(error.data?["unknown"] == ["bogusArgument"])
            let declared = Self.properties(of: tool).keys
            #expect(error.data?["takes"] == .array(declared.map(JSONValue.string)), "\(tool)")
            for name in declared { #expect(error.message.contains(name), "\(tool)'s refusal lists \(name)") }
        }
    }

    @Test func everyToolTakesEachMemberItDeclaresWithAValueOfItsType() {
        for tool in MCPToolCatalog.Name.allCases {
            for (name, schema) in Self.properties(of: tool) {
                guard let value = Self.sample(schema) else { continue }
                let error = Self.refusal([name: value], of: tool)
                #expect(error == nil, "\(tool) \(name) \(value.jsonText): \(error?.message ?? "")")
            }
        }
    }

    @Test func theFalsePassesTheTesterFoundAreRefusedWithTheNameMeant() throws {
        let expect = try #require(Self.refusal(
            ["app": "com.example.DeepThoughts", "mark": "state-saved", "data": ["reason": "NOT-THIS"]], of: .expect))
        #expect(expect.message.contains("expect does not take 'data' (did you mean 'markData'?)"), "\(expect.message)")
        #expect(expect.data?["didYouMean"] == ["data": "markData"])
        let wait = try #require(Self.refusal(["app": "a", "state": "active", "timeout": "1s"], of: .waitForState))
        #expect(wait.message.contains("'timeout' (did you mean 'timeoutMs'?)"), "\(wait.message)")
        let fire = try #require(Self.refusal(["event": "home", "bogus": 1], of: .fire))
        #expect(fire.data?["field"] == "bogus")
        let install = try #require(Self.refusal(["manifest": "x.json"], of: .install))
        #expect(install.message.hasSuffix("install does not take 'manifest'; it takes path"), "\(install.message)")
        let several = try #require(Self.refusal(["appId": "a", "zzz": 1], of: .status))
        #expect(several.data?["unknown"] == ["appId", "zzz"])
        #expect(several.message.contains("'appId' (did you mean 'app'?), 'zzz'"), "\(several.message)")
        let many = try #require(Self.refusal(JSONObject((1...12).map { ("x\($0)", JSONValue.integer(1)) }), of: .reset))
        #expect(many.data?["unknown"]?.arrayValue?.count == ToolArguments.maxNamed)
        #expect(many.message.contains("'x10', and 2 more;") && !many.message.contains("'x11'"), "\(many.message)")
        let reset = try #require(Self.refusal(["hard": true], of: .reset))
        #expect(reset.message.hasSuffix("reset does not take 'hard'; it takes none"), "\(reset.message)")
    }

    @Test func aMemberOfTheWrongTypeIsRefusedNamingIt() throws {
        let timeout = try #require(Self.refusal(["app": "a", "state": "active", "timeoutMs": "1s"], of: .waitForState))
        #expect(timeout.data?["field"] == "timeoutMs")
        #expect(timeout.message.contains("'timeoutMs' must be a number, not a string"), "\(timeout.message)")
        #expect(Self.refusal(["app": 7], of: .coverage)?.data?["field"] == "app")
        #expect(Self.refusal(["path": ["a"]], of: .timeline)?.data?["field"] == "path")
        #expect(Self.refusal(["event": "home", "wait": "yes"], of: .fire)?.data?["field"] == "wait")
        #expect(Self.refusal(["app": "a", "scene": .null], of: .expect)?.data?["field"] == "scene")
        #expect(Self.refusal(["apps": ["a", 2]], of: .timeline)?.data?["field"] == "apps[1]")
        #expect(Self.refusal(["limit": 1.5], of: .history)?.data?["field"] == "limit")
        #expect(Self.refusal(["limit": 2.0], of: .history) == nil, "an integer written 2.0 is an integer")
        let state = try #require(Self.refusal(["app": "a", "state": 3], of: .expect))
        #expect(state.message.contains("'state' must be a string or an array, not an integer"), "\(state.message)")
        #expect(Self.refusal(["app": "a", "state": ["active", 3]], of: .expect)?.data?["field"] == "state[1]")
    }

    @Test func aClosedNestedObjectIsHeldToItsMembersAnOpenOneIsNot() throws {
        let since = try #require(Self.refusal(["app": "a", "mark": "m", "since": ["seq": 3, "bogus": 1]], of: .expect))
        #expect(since.data?["field"] == "since.bogus")
        #expect(since.message.contains("'since' does not take 'bogus'; it takes seq"), "\(since.message)")
        let seq = try #require(Self.refusal(["app": "a", "mark": "m", "since": ["seq": "3"]], of: .expect))
        #expect(seq.data?["field"] == "since.seq")
        #expect(Self.refusal(["app": "a", "mark": "m", "since": ["mark": "saved"]], of: .expect) == nil)
        #expect(Self.refusal(["app": "a", "mark": "m", "markData": ["anything": [1, "two"]]], of: .expect) == nil)
        #expect(Self.refusal(["event": "push", "payload": ["aps": ["alert": "hi"]]], of: .fire) == nil)
    }

    @Test func theSuggestionIsTheClosestSpellingOrTheOneMemberHoldingTheWord() {
        #expect(ToolArguments.suggestion(for: "timout", among: ["app", "timeoutMs"]) == "timeoutMs")
        #expect(ToolArguments.suggestion(for: "DATA", among: ["mark", "markData"]) == "markData")
        #expect(ToolArguments.suggestion(for: "event", among: ["taskEvent", "eventual"]) == nil, "two hold it")
        #expect(ToolArguments.suggestion(for: "manifest", among: ["path"]) == nil)
    }
}
