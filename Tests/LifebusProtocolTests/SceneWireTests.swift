import LifebusJSON
import LifebusLifecycle
@testable import LifebusProtocol
import Testing

/// The scene members of the wire (`Protocol/README.md` §7.1, §10.1, §11.1, §11.2, §13): each read back as written,
/// the direct writers equal to the general ones, the legacy texts unchanged, and the rules the schema derivation
/// cannot probe (payloads of any JSON, members whose rules depend on the event).
@Suite struct SceneWireTests {
    static let context = CallbackScene(
        scene: SceneID(2), session: SceneSessionID(7), sceneState: .foregroundInactive,
        posts: .willEnterForeground,
        options: {
            var options = SceneConnectionOptions.none
            options.urlContexts = ["notes://note/7"]
            options.notificationResponse = #"{"aps":{"alert":"hi"}}"#
            options.userActivity = #"{"type":"edit","note":7}"#
            return options
        }(),
        restoration: #"{"note":7,"scroll":[1,2.5]}"#)

    private func text(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        write(&bytes)
        return bytes
    }

    @Test func helloCarriesTheSceneFlagsAndAnAppWithoutScenesSaysWhatItSaidBefore() throws {
        var flags = AppFlags()
        let legacy = HelloParams(role: .app, appID: "com.x", flags: flags).json.jsonText
        #expect(!legacy.contains("scenes") && !legacy.contains("implements"))
        flags.adoptsScenes = true
        flags.supportsMultipleScenes = true
        flags.implementedCallbacks = [.willConnectTo, .sceneDidEnterBackground, .didEnterBackground]
        flags.destructionConditions = [.userInitiatedDismissal, .systemDisconnection]
        let hello = HelloParams(role: .app, appID: "com.x", flags: flags)
        #expect(try HelloParams(json: hello.json) == hello)
        #expect(hello.json["app"]?["destructionConditions"] == ["userInitiatedDismissal", "systemDisconnection"])
        let unknown = Wire.with(
            hello.json, "app", Wire.with(hello.json["app"] ?? .null, "destructionConditions", ["onHome"]))
        #expect(Wire.rejectedField(HelloParams.init(json:), unknown) == "app.destructionConditions[0]")
        let wrong = Wire.with(hello.json, "app", Wire.with(hello.json["app"] ?? .null, "implements", ["scenePhase"]))
        #expect(Wire.rejectedField(HelloParams.init(json:), wrong) == "app.implements[0]")
    }

    @Test func aSceneCallbackRoundTripsAndItsWriterWritesWhatItsJSONWrites() throws {
        let params = CallbackParams(
            callbackID: 9, callback: .willConnectTo, state: .background, budgetMs: 10_000,
            cause: EventCause(eventID: 3, event: "scene open com.x"), scene: Self.context)
        #expect(try CallbackParams(json: params.json) == params)
        #expect(text(params.write) == params.json.jsonBytes)
        let discard = CallbackParams(
            callbackID: 10, callback: .didDiscardSceneSessions, state: .active, budgetMs: 10_000,
            sessions: [SceneSessionID(1), SceneSessionID(4)])
        #expect(try CallbackParams(json: discard.json) == discard)
        #expect(text(discard.write) == discard.json.jsonBytes)
        #expect(discard.json["sessions"] == [1, 4])
    }

    @Test func anAppLevelCallbackKeepsItsTextWithoutSceneMembers() {
        let params = CallbackParams(callbackID: 1, callback: .didBecomeActive, state: .active, budgetMs: 5000)
        #expect(String(decoding: text(params.write), as: UTF8.self)
            == #"{"callbackID":1,"callback":"didBecomeActive","state":"active","budgetMs":5000.0,"cause":null}"#)
    }

    @Test func aSceneMemberWithoutItsCompanionsIsRefusedNamingIt() {
        let params = CallbackParams(
            callbackID: 9, callback: .sceneDidBecomeActive, state: .active, budgetMs: 1, scene: Self.context)
        #expect(Wire.rejectedField(CallbackParams.init(json:), Wire.with(params.json, "session", nil)) == "session")
        #expect(Wire.rejectedField(CallbackParams.init(json:), Wire.with(params.json, "sceneState", nil))
            == "sceneState")
        #expect(Wire.rejectedField(CallbackParams.init(json:), Wire.with(params.json, "scene", 0)) == "scene")
    }

    @Test func anAnswerCarriesItsRestorationPayloadOnEitherPath() throws {
        let answer = CallbackAnswer(handlerMs: 0.5, restoration: #"{"note":7}"#)
        #expect(try CallbackAnswer(json: answer.json) == answer)
        let bytes = answer.json.jsonBytes
        #expect(bytes.withUnsafeBytes { CallbackAnswer(canonicalText: $0) } == nil, "left to the general path")
        #expect(CallbackAnswer(readingLeniently: answer.json) == answer)
        // An answer whose other members are wrong still keeps the payload.
        let odd: JSONValue = ["handlerMs": "slow", "restoration": ["note": 7]]
        #expect(CallbackAnswer(readingLeniently: odd).restoration == #"{"note":7}"#)
        #expect(try CallbackAnswer(json: ["restoration": .null]).restoration == nil)
    }

    @Test func aSceneTransitionRecordRoundTripsAndBothWritersAgree() throws {
        var record = TransitionRecord(
            seq: 4, app: "com.x", pid: 12, callback: .sceneDidEnterBackground, cause: nil, from: .inactive,
            to: .background, firedMs: 1, sentMs: 2, answeredMs: 3, handlerMs: 0.5, budgetMs: 10_000, outcome: .ok,
            wallMs: 5)
        let legacy = text(record.write)
        record.scene = TransitionScene(
            scene: SceneID(3), session: SceneSessionID(1), from: .foregroundInactive, to: .background)
        #expect(try TransitionRecord(json: record.json) == record)
        #expect(text(record.write) == record.json.jsonBytes)
        let journaled = try #require(JournaledTransition(exactly: record))
        #expect(text(journaled.write) == record.json.jsonBytes)
        #expect(journaled.record == record)
        // The scene's members follow wallMs: the record of the app alone is the same text up to there.
        #expect(Array(text(record.write).prefix(legacy.count - 1)) == Array(legacy.dropLast()))
    }

    @Test func theWidestSceneRecordFitsItsBound() {
        var record = RecordWritingTests.widest
        record.scene = TransitionScene(
            scene: SceneID(.max), session: SceneSessionID(.max), from: .foregroundInactive,
            to: .foregroundInactive)
        #expect(text(record.write).count <= record.writtenBound)
        #expect(text(record.write) == record.json.jsonBytes)
    }

    @Test func statusListsASceneAppsSessions() throws {
        let status = AppStatus(
            id: "com.x", pid: 3, state: .active, sinceMs: 1, connected: true,
            scenes: [
                SceneSessionEntry(
                    session: SceneSessionID(1), scene: SceneID(2), state: .foregroundActive,
                    restoration: false),
                SceneSessionEntry(session: SceneSessionID(2), restoration: true),
            ])
        #expect(try AppStatus(json: status.json) == status)
        #expect(status.json["scenes"]?[1] == ["session": 2, "restoration": true])
        #expect(AppStatus(id: "com.x", pid: 3, state: .active, sinceMs: 1, connected: true).json["scenes"] == nil)
    }

    @Test(arguments: [
        ("scene", "open", [("url", JSONValue.string("notes://7")), ("activity", ["type": "edit"])], nil),
        ("scene", "close", [("scene", 2)], nil),
        ("scene", "close", [], nil),
        ("scene", "reclaim", [("scene", 2)], nil),
        ("scene", "reconnect", [("session", 1)], nil),
        ("scene", "focus", [("scene", 1)], nil),
        ("launch", nil, [("url", "notes://7")], nil),
        ("launch", nil, [("push", ["aps": ["alert": "hi"]])], nil),
        ("scene", nil, [], "action"),
        ("scene", "reclaim", [], "scene"),
        ("scene", "focus", [("session", 1), ("scene", 1)], "session"),
        ("scene", "reconnect", [], "session"),
        ("scene", "open", [("scene", 1)], "scene"),
        ("scene", "close", [("url", "x://")], "url"),
        ("home", nil, [("scene", 1)], "scene"),
        ("activate", nil, [("url", "x://")], "url"),
        ("scene", "open", [("push", ["a": 1])], "push"),
        ("launch", nil, [("activity", ["a": 1])], "activity"),
        ("launch", nil, [("url", "x://"), ("push", ["a": 1])], "push"),
        ("launch", nil, [("url", "")], "url"),
        ("scene", "reclaim", [("scene", 0)], "scene"),
    ] as [(String, String?, [(String, JSONValue)], String?)])
    func fireTakesTheSceneMembersWhereTheirEventDoes(
        event: String, action: String?, members: [(String, JSONValue)], refused: String?
    ) throws {
        var object: JSONObject = ["event": .string(event)]
        if let action { object.append("action", .string(action)) }
        if event == "scene" || event == "launch" || event == "activate" { object.append("app", "com.x") }
        for (key, value) in members { object.append(key, value) }
        let json = JSONValue.object(object)
        if let refused {
            #expect(Wire.rejectedField(FireParams.init(json:), json) == refused)
            return
        }
        let params = try FireParams(json: json)
        #expect(try FireParams(json: params.json) == params)
        #expect(FireParams(label: params.label) == params, "\(params.label)")
        #expect(params.json.jsonBytes.withUnsafeBytes { FireParams.readCanonical($0) } == nil || members.isEmpty)
    }

    @Test func theLabelsSpellTheSceneWords() throws {
        var params = FireParams(event: .scene, action: .close, app: "com.x")
        #expect(params.label == "scene close --app com.x")
        params.scene = SceneID(2)
        #expect(params.label == "scene close com.x 2")
        params = FireParams(event: .scene, action: .reconnect, app: "com.x")
        params.session = SceneSessionID(1)
        #expect(params.label == "scene reconnect com.x 1")
        params = FireParams(event: .launch, app: "com.x")
        params.url = "notes://7"
        #expect(params.label == "launch com.x --url notes://7")
        #expect(params.connectionOptions?.urlContexts == ["notes://7"])
    }

    @Test func anEventWithoutSceneMembersKeepsItsTextAndItsPackedWord() throws {
        let params = FireParams(event: .home)
        #expect(params.json.jsonText
                == #"{"event":"home","action":null,"app":null,"level":null,"byUser":false,"wait":true}"#)
        #expect(FireParams.Packed(params, members: .all)?.params == params)
    }
}
