import LifebusTesting
import Testing

// This file imports LifebusTesting and Testing only: that it compiles proves `import LifebusTesting` alone names the
// vocabulary a test needs (events with their actions and levels, callbacks, states, profiles, scene types, outcomes,
// kill and refusal reasons, `JSONValue`, memory levels) and the SDK's delegates with the types they receive.

/// A scene app that names, in its delegates' signatures, the SDK types the kit re-exports.
private final class Exported: ApplicationDelegate, SceneDelegate {
    var launches: [LaunchOptions] = []
    var sessions: [SceneSession] = []
    var phases: [ScenePhase] = []

    func didFinishLaunching(_ application: Application, options: LaunchOptions) async {
        launches.append(options)
    }

    func didReceiveMemoryWarning(_ application: Application) async {
        let data: JSONObject = ["launches": .integer(Int64(launches.count))]
        try? await application.mark("warned", data: data)
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
        sessions.append(session)
    }

    func sceneDidEnterBackground(_ scene: Scene) async {
        phases.append(scene.phase)
    }
}

@Suite(.hangGuard)
@MainActor
struct ExportsTests {
    @Test func aTestThatImportsOnlyLifebusTestingNamesTheWholeVocabulary() async throws {
        let profile: Profile = .ios13
        let bus = try await LifebusTestBus(.inMemory, profile: profile)
        let delegate = Exported()
        let id: AppID = "com.example.Exported"
        let app = try await bus.launch(
            id, delegate: delegate, sceneDelegate: delegate, options: ApplicationOptions(supportsMultipleScenes: true))
        let events: [ControllerEvent] = [
            .call(CallAction.ring), .call(.decline), .sms(AlertAction.show), .sms(.dismiss),
            .memoryWarning(MemoryWarningLevel.warning),
        ]
        for event in events { try await bus.fire(event) }
        try await bus.expect(app, mark: "warned")
        let second = try await bus.openScene(app, options: SceneConnectionOptions(urlContexts: ["notes://1"]))
        #expect(second == SceneID(2))
        try await bus.fire(.scene(SceneEvent.focus(id, SceneID(1))))
        try await bus.fire(.home)
        try await bus.expect(app, state: LifecycleState.suspended)
        try await bus.expect(app, scene: second, state: SceneState.background)
        try await bus.expect(app, scene: second, phase: ScenePhase.background)
        try await bus.expect(app, scene: second, callback: LifecycleCallback.sceneDidEnterBackground, outcome: .ok)
        await #expect(throws: EventRejected(event: .call(.end), reason: RejectionReason.noCall)) {
            try await bus.fire(.call(.end))
        }
        try await bus.fire(.memoryWarning(MemoryWarningLevel(MemoryPressure.critical)!))
        try await bus.expect(app, outcome: CallbackOutcome.killed(KillReason.jetsam))
        let jetsam = BusTimeline.Entry.transition(
            app: id, callback: nil, from: .suspended, to: .notRunning, outcome: TransitionOutcome.jetsam)
        #expect(bus.timeline.entries.contains(jetsam))
        #expect(delegate.launches.count == 1)
        #expect(delegate.sessions.map(\.persistentIdentifier) == [SceneSessionID(1), SceneSessionID(2)])
        #expect(delegate.phases == [.inactive, .inactive], "a scene entering the background was inactive")
        let data: JSONValue = .object(["count": .integer(1)])
        #expect(data["count"] == JSONValue.integer(1))
        await bus.shutdown()
    }
}
