import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A scene's `wait` on the wire (`Protocol/README.md` §11.3): its params and result read back as written, the
/// broker's choice between a scene's and an app's wait, what it refuses, the timeout's `sceneState`, and the scene
/// states the schemas list (the rules `SchemaDerivationTests` cannot probe: they depend on `scene`).
@Suite struct SceneWaitWireTests {
    @Test func paramsAndResultReadBackAsWritten() throws {
        let params = SceneWaitParams(
            app: "com.x", scene: SceneID(2), states: [.background, .unattached], timeoutMs: 250)
        #expect(params.json.jsonText
            == #"{"app":"com.x","scene":2,"state":["background","unattached"],"timeoutMs":250.0}"#)
        #expect(try SceneWaitParams(json: params.json) == params)
        #expect(SceneWaitParams.namesScene(params.json))
        #expect(!SceneWaitParams.namesScene(WaitParams(app: "com.x", state: .active).json))
        #expect(!SceneWaitParams.namesScene(try JSONParser.parse(#"{"app":"com.x","scene":null,"state":"active"}"#)))
        let single = try SceneWaitParams(
            json: JSONParser.parse(#"{"app":"com.x","scene":1,"state":"foregroundActive"}"#))
        #expect(single.states == [.foregroundActive] && single.timeoutMs == nil && single.target == "com.x/1")

        let reached = SceneWaitResult(
            app: "com.x", scene: SceneID(2), session: SceneSessionID(3), state: .foregroundActive, sinceMs: 12.5)
        #expect(reached.json.jsonText
            == #"{"app":"com.x","scene":2,"session":3,"state":"foregroundActive","sinceMs":12.5}"#)
        #expect(try SceneWaitResult(json: reached.json) == reached)
        let gone = SceneWaitResult(app: "com.x", scene: SceneID(2), session: nil, state: .unattached, sinceMs: nil)
        #expect(gone.json.jsonText == #"{"app":"com.x","scene":2,"state":"unattached","sinceMs":null}"#)
        #expect(try SceneWaitResult(json: gone.json) == gone)
    }

    @Test(arguments: [
        (#"{"app":"com.x","scene":1,"state":"active"}"#, "state"),
        (#"{"app":"com.x","scene":1,"state":[]}"#, "state"),
        (#"{"app":"com.x","scene":1,"state":["background","suspended"]}"#, "state"),
        (#"{"app":"com.x","scene":0,"state":"background"}"#, "scene"),
        (#"{"app":"com.x","scene":"1","state":"background"}"#, "scene"),
        (#"{"app":"com.x","scene":1,"state":"background","timeoutMs":86400001}"#, "timeoutMs"),
    ])
    func refusalsNameTheirField(text: String, field: String) throws {
        #expect(throws: RPCError.self) { try SceneWaitParams(json: JSONParser.parse(text)) }
        do {
            _ = try SceneWaitParams(json: JSONParser.parse(text))
        } catch let error as RPCError {
            #expect(error.data?["field"]?.stringValue == field, "\(error)")
        }
    }

    @Test func theTimeoutCarriesTheScenesState() throws {
        let error = WaitTimeout(state: .background, transitions: [], connected: true, sceneState: .unattached)
            .error("com.x/2 is unattached")
        #expect(error.data?["sceneState"] == "unattached")
        #expect(WaitTimeout(error)?.sceneState == .unattached)
        #expect(WaitTimeout(WaitTimeout(state: .active, transitions: []).error("x"))?.sceneState == nil)
    }

    @Test func theSchemasListTheSceneStatesForASceneAndTheAppStatesOtherwise() throws {
        let scenes = Set(SceneState.allCases.map(\.rawValue))
        let apps = Set(LifecycleState.allCases.map(\.rawValue))
        for name in ["wait.params", "wait.result"] {
            let schema = try JSONParser.parse(try Fixtures.bytes(
                Fixtures.schemas.appendingPathComponent("\(name).schema.json")))
            let rule = try #require(schema["allOf"]?[0], "\(name) has its scene rule")
            #expect(Self.enumValues(rule["then"]?["properties"]?["state"]) == scenes, "\(name)")
            #expect(Self.enumValues(rule["else"]?["properties"]?["state"]) == apps, "\(name)")
        }
    }

    /// Every string an `enum` under `definition` lists (through `anyOf` and `items`).
    static func enumValues(_ definition: JSONValue?) -> Set<String> {
        guard let definition else { return [] }
        var values = Set((definition["enum"]?.arrayValue ?? []).compactMap(\.stringValue))
        values.formUnion(enumValues(definition["items"]))
        for choice in definition["anyOf"]?.arrayValue ?? [] { values.formUnion(enumValues(choice)) }
        return values
    }
}
