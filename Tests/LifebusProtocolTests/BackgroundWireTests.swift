import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The background life's wire (`Protocol/README.md` §10.2, §11.1, §13): the callback params' background members
/// and the answer's fetch result, `fire bgtask` and `fire push`, and the three records, each read back as written.
@Suite struct BackgroundWireTests {
    static let background: [CallbackParams] = [
        CallbackParams(callbackID: 1, callback: .didFinishLaunching, state: .background, budgetMs: 20_000,
                       background: CallbackBackground(launchReason: .backgroundTask)),
        CallbackParams(callbackID: 2, callback: .performBackgroundTask, state: .background, budgetMs: 10_000,
                       background: CallbackBackground(identifier: "com.x.refresh", kind: .appRefresh)),
        CallbackParams(callbackID: 3, callback: .didReceiveRemoteNotification, state: .background, budgetMs: 30_000,
                       background: CallbackBackground(payload: #"{"feed":7}"#)),
    ]

    @Test(arguments: background)
    func aCallbacksBackgroundMembersAreWrittenAfterTheOthersAndReadBack(params: CallbackParams) throws {
        #expect(try CallbackParams(json: params.json) == params)
        var written: [UInt8] = []
        params.write(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == params.json.jsonText, "the direct writer's text")
    }

    @Test func aUserLaunchSaysNoLaunchReasonSoAnAppLevelCallbackKeepsItsText() {
        let params = CallbackParams(callbackID: 1, callback: .didFinishLaunching, state: .inactive, budgetMs: 1,
                                    background: CallbackBackground(launchReason: .user))
        #expect(params.background == nil)
        #expect(params.json["launchReason"] == nil)
    }

    @Test func anAnswersFetchResultIsReadOnTheGeneralPathAndLeniently() throws {
        let answer = CallbackAnswer(handlerMs: 2, result: .newData)
        #expect(try CallbackAnswer(json: answer.json) == answer)
        let text = Array(answer.json.jsonText.utf8)
        #expect(text.withUnsafeBytes { CallbackAnswer(canonicalText: $0) } == nil, "left to the general path")
        #expect(CallbackAnswer(readingLeniently: ["handlerMs": "x", "result": "failed"]).result == .failed)
        #expect(throws: RPCError.self) { try CallbackAnswer(json: ["result": "maybe"]) }
    }

    @Test func anAnswersPresentationIsReadOnTheGeneralPathAndLeniently() throws {
        let answer = CallbackAnswer(handlerMs: 2, presentation: [.sound, .banner])
        #expect(answer.json["presentation"] == ["banner", "sound"], "in wire order")
        #expect(try CallbackAnswer(json: answer.json) == answer)
        let text = Array(answer.json.jsonText.utf8)
        #expect(text.withUnsafeBytes { CallbackAnswer(canonicalText: $0) } == nil, "left to the general path")
        #expect(try CallbackAnswer(json: ["presentation": []]).presentation == [])
        #expect(CallbackAnswer(readingLeniently: ["handlerMs": "x", "presentation": ["list", "popup"]]).presentation
            == [.list])
        #expect(throws: RPCError.self) { try CallbackAnswer(json: ["presentation": ["popup"]]) }
        #expect(throws: RPCError.self) { try CallbackAnswer(json: ["presentation": "banner"]) }
    }

    @Test func bgtaskAndPushCarryTheirMembersOnTheWireAndInTheirLabels() throws {
        var task = FireParams(event: .bgtask, action: .cancel, app: "com.x")
        task.identifier = "com.x.export"
        var push = FireParams(event: .push, action: .silent, app: "com.x")
        push.payload = #"{"feed":7}"#
        for params in [task, push] {
            #expect(try FireParams(json: params.json) == params)
            #expect(FireParams(label: params.label) == params, "\(params.label)")
        }
        #expect(task.label == "bgtask --cancel com.x com.x.export")
        #expect(push.label == #"push --silent com.x --payload {"feed":7}"#)
        #expect(task.controllerEvent == .backgroundTask("com.x", identifier: "com.x.export", action: .cancel))
        #expect(push.controllerEvent == .push("com.x", PushNotification(
            contentAvailable: true, alert: false, payload: #"{"feed":7}"#)))
    }

    @Test(arguments: [
        (#"{"event":"bgtask","app":"com.x"}"#, "identifier"),
        (#"{"event":"push","app":"com.x","identifier":"com.x.refresh"}"#, "identifier"),
        (#"{"event":"bgtask","app":"com.x","identifier":"com.x.r","payload":{}}"#, "payload"),
        (#"{"event":"push","app":"com.x","payload":[1]}"#, "payload"),
    ])
    func aBackgroundMemberWhereItsEventTakesNoneIsRefusedNamingIt(text: String, member: String) throws {
        let json = try JSONParser.parse(Array(text.utf8))
        let error = #expect(throws: RPCError.self) { try FireParams(json: json) }
        #expect(error?.data?["field"]?.stringValue == member)
    }

    @Test func theBackgroundRecordsAreJournalEntriesReadBackAsWritten() throws {
        let entries: [JournalEntry] = [
            .task(BackgroundTaskRecord(
                seq: 4, app: "com.x", pid: 9, identifier: "com.x.refresh", kind: .appRefresh, event: .completed,
                success: true, atMs: 900_000, wallMs: 1)),
            .push(PushDeliveryRecord(
                seq: 5, app: "com.x", pid: 9, event: .answered, result: .newData, payload: #"{"feed":7}"#,
                atMs: 1_200, wallMs: 2)),
            .protectedData(ProtectedDataRecord(seq: 6, available: false, atMs: 10_000, wallMs: 3)),
            .push(PushDeliveryRecord(
                seq: 7, app: "com.x", pid: 9, event: .presented, result: nil, presentation: [], payload: "{}",
                atMs: 1_300, wallMs: 4)),
        ]
        #expect(entries[1].json["presentation"] == nil, "only a presented record has the member")
        #expect(entries[3].json["presentation"] == [])
        for entry in entries {
            #expect(try JournalEntry(json: entry.json) == entry)
            var written: [UInt8] = []
            entry.write(to: &written)
            #expect(try JournalEntry(json: JSONParser.parse(written)) == entry)
        }
        #expect(entries.map(\.app) == ["com.x", "com.x", nil, "com.x"])
        #expect(entries.map(\.seq) == [4, 5, 6, 7])
    }
}
