import Lifebus
import LifebusLifecycle
import LifebusTesting
import Testing

/// The kit's scene verbs and expectations on both transports, with an in-process scene app: windows opened, sent
/// home, reclaimed and reconnected (the payload handed back to the delegate), focus, a URL to the running app,
/// `scenePhase` as SwiftUI defines it, a held scene callback, and a failed scene expectation's report.
@Suite(.hangGuard)
@MainActor
struct SceneBusTests {
    /// Keeps `{"note":<scene>}` for each scene and records what it was handed back and the URLs it opened.
    final class Windows: ApplicationDelegate, SceneDelegate {
        var restored: [String] = []
        var urls: [String] = []

        func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
            if let payload = session.stateRestorationActivity { restored.append(payload) }
        }

        func stateRestorationActivity(for scene: Scene) async -> String? {
            "{\"note\":\(scene.id.number)}"
        }

        func scene(_ scene: Scene, openURLContexts urls: [String]) async {
            self.urls += urls
        }
    }

    @Test(arguments: [false, true])
    func windowsGoHomeAreReclaimedAndComeBackWithTheirPayload(live: Bool) async throws {
        let bus = try await LifebusTestBus(live ? .live : .inMemory, profile: .ios17)
        let windows = Windows()
        let app = try await bus.launch(
            "com.example.Windows", delegate: windows, sceneDelegate: windows,
            options: ApplicationOptions(supportsMultipleScenes: true))
        let first = SceneID(1)
        try await bus.expect(app, scene: first, state: .foregroundActive)
        let second = try await bus.openScene(app)
        #expect(second == SceneID(2))
        try await bus.expect(app, scene: first, callbacks: [.sceneWillResignActive])
        try await bus.expect(app, scene: first, phase: .inactive)
        try await bus.expect(app, scene: second, phase: .active)
        try await bus.expect(app, phase: .active)

        try await bus.focus(app, scene: first)
        try await bus.expect(app, scene: first, callbacks: [.sceneDidBecomeActive])
        try await bus.fire(.launch(app.id, url: "notes://7"))
        #expect(windows.urls == ["notes://7"])

        try await bus.fire(.home)
        try await bus.expect(app, phase: .background)
        #expect(try await bus.scenePhase(of: app, scene: second) == .background)
        try await bus.reclaim(app, scene: second)
        try await bus.expect(app, scene: second, state: .unattached)
        #expect(try await bus.savedSessions(of: app) == [SceneSessionID(2)])
        let back = try await bus.reconnect(app, session: SceneSessionID(2))
        #expect(back == SceneID(3))
        try await bus.expect(app, scene: back, state: .foregroundActive)
        #expect(windows.restored == ["{\"note\":2}"])
        #expect(app.application?.connectedScenes.map(\.id) == [first, back])
        await bus.shutdown()
    }

    @Test(arguments: [false, true])
    func aHeldSceneCallbackWaitsForItsRelease(live: Bool) async throws {
        let bus = try await LifebusTestBus(live ? .live : .inMemory, profile: .ios27)
        let windows = Windows()
        let app = try await bus.launch("com.example.Windows", delegate: windows, sceneDelegate: windows)
        try bus.hold(app)
        let home = try await bus.fire(.home, waiting: false)
        #expect(bus.timeline.callbacks(of: app.id, scene: SceneID(1)).last == .sceneDidBecomeActive, "nothing answered")
        try await bus.release(app)
        try await home.completion()
        try await bus.expect(app, scene: SceneID(1), callbacks: [.sceneWillResignActive, .sceneDidEnterBackground])
        await bus.shutdown()
    }

    @Test func aFailedSceneExpectationShowsExpectedBesideRecordedAndTheScenesTimeline() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios27)
        let windows = Windows()
        let app = try await bus.launch("com.example.Windows", delegate: windows, sceneDelegate: windows)
        try await bus.fire(.home)
        try await withKnownIssue {
            try await bus.expect(app, scene: SceneID(1), callbacks: [.sceneWillResignActive, .sceneDidDisconnect])
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("scene 1 of com.example.Windows did not receive the expected callbacks")
                && text.contains("~ sceneDidDisconnect")
                && text.contains("com.example.Windows/1 sceneDidEnterBackground foregroundInactive -> background")
        }
        await bus.shutdown()
    }
}
