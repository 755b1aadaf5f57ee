import LifebusProtocol
import Testing

/// Each wire type writes the members its schema in `Protocol/schemas/` declares: every required member, and no
/// member the schema does not list.
@Suite struct SchemaShapeTests {
    static let samples: [(String, JSONValue)] = [
        ("event-cause", EventCause(eventID: 3, event: "call --answer").json),
        ("callback.params", CallbackParams(callbackID: 1, callback: .didBecomeActive, state: .active, budgetMs: 1).json),
        ("callback.result", CallbackAnswer(handlerMs: 1).json),
        ("beginBackgroundTask.params", BackgroundTaskBeginParams(name: "upload").json),
        ("beginBackgroundTask.result", BackgroundTaskBeginResult(taskID: 4).json),
        ("endBackgroundTask.params", BackgroundTaskEndParams(taskID: 4).json),
        ("backgroundTaskExpiring.params", BackgroundTaskExpiringParams(taskID: 4).json),
        ("mark.params", MarkParams(name: "m", data: [:]).json),
        ("reportMemory.params", ReportMemoryParams(bytes: 1).json),
        ("empty.result", EmptyResult.json),
        ("fire.params", FireParams(event: .call, action: .answer).json),
        ("fire.result", FireResult(eventID: 3, event: "call", completed: true).json),
        ("status.params", StatusParams(app: "com.x").json),
        ("status.result", StatusResult(profile: "ios7", locked: false, call: .none, alert: nil, foreground: nil,
                                       apps: []).json),
        ("app-status", AppStatus(id: "com.x", pid: nil, state: .active, sinceMs: 0, connected: true).json),
        ("wait.params", WaitParams(app: "com.x", state: .active, timeoutMs: 1).json),
        ("wait.result", WaitResult(app: "com.x", state: .active, sinceMs: 0).json),
        ("history.params", HistoryParams(app: "com.x", limit: 1, beforeSeq: 2).json),
        ("history.result", HistoryResult(entries: []).json),
        ("transition.record", Wire.transitionRecord.json),
        ("mark.record", MarkRecord(seq: 1, app: "com.x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0).json),
        ("run.record", RunRecord(seq: 1, reason: .start, brokerVersion: "0.1.0", protocolVersion: 1, profile: "ios7",
                                 timeScale: 1, pid: 42, startedWallMs: 0, atMs: 0, wallMs: 0).json),
        ("advance.params", AdvanceParams(byMs: 5).json),
        ("advance.result", ClockResult(clock: .manual, nowMs: 5, outstanding: [
            OutstandingCallback(app: "com.x", callback: .willResignActive, callbackID: 3),
        ]).json),
        ("clock.result", ClockResult(clock: .real, nowMs: 5).json),
    ]

    @Test(arguments: samples)
    func theTypeWritesExactlyTheMembersItsSchemaDeclares(name: String, json: JSONValue) throws {
        let url = Fixtures.schemas.appendingPathComponent("\(name).schema.json")
        let schema = try JSONParser.parse(try Fixtures.bytes(url))
        let written = Set(try #require(json.objectValue).keys)
        let declared = Set(try #require(schema["properties"]?.objectValue).keys)
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        #expect(required.isSubset(of: written), "\(name) lacks \(required.subtracting(written))")
        #expect(written.isSubset(of: declared), "\(name) writes undeclared \(written.subtracting(declared))")
    }
}
