import Lifebus
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// A scene delegate that records each call with its scene and runs what the test gives it.
@MainActor
final class RecordingSceneDelegate: SceneDelegate {
    var calls: [String] = []
    var connected: [(scene: Scene, session: SceneSession, options: SceneConnectionOptions)] = []
    var payload: String?
    var onCall: (@MainActor (String) -> Void)?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
        connected.append((scene, session, options))
        record("willConnectTo", scene)
    }
    func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async {
        record("restoreInteractionState \(activity)", scene)
    }
    func sceneWillEnterForeground(_ scene: Scene) async { record("sceneWillEnterForeground", scene) }
    func sceneDidBecomeActive(_ scene: Scene) async { record("sceneDidBecomeActive", scene) }
    func sceneWillResignActive(_ scene: Scene) async { record("sceneWillResignActive", scene) }
    func sceneDidEnterBackground(_ scene: Scene) async { record("sceneDidEnterBackground", scene) }
    func stateRestorationActivity(for scene: Scene) async -> String? {
        record("stateRestorationActivity", scene)
        return payload
    }
    func sceneDidDisconnect(_ scene: Scene) async { record("sceneDidDisconnect", scene) }
    func scene(_ scene: Scene, openURLContexts urls: [String]) async { record("openURLContexts \(urls)", scene) }

    private func record(_ call: String, _ scene: Scene) {
        calls.append("\(call) \(scene.id)")
        onCall?(call)
    }
}

/// The SDK's scene side against a broker that sends scene callbacks (`FakeBroker`): hello's flags, the scene
/// delegate's dispatch, scenes and sessions as values, the restoration payload both ways, the app-level
/// notifications on the aggregate's edges and the `scenePhase` streams by SwiftUI's rules.
@MainActor
@Suite(.hangGuard)
struct SceneDelegateTests {
    static let one = SceneID(1), two = SceneID(2), first = SceneSessionID(1), second = SceneSessionID(2)

    static func scene(
        _ scene: SceneID, _ session: SceneSessionID, _ state: SceneState, posts: ApplicationNotification? = nil,
        options: SceneConnectionOptions? = nil, restoration: String? = nil
    ) -> CallbackScene {
        CallbackScene(scene: scene, session: session, sceneState: state, posts: posts, options: options,
                      restoration: restoration)
    }

    @Test func helloSaysTheAppAdoptsScenesWithWhatItImplements() async throws {
        let options = ApplicationOptions(supportsMultipleScenes: true,
                                         implementedCallbacks: [.willConnectTo, .sceneDidEnterBackground],
                                         destructionConditions: .systemDisconnection)
        let harness = try await AppHarness.launch(options: options, sceneDelegate: RecordingSceneDelegate())
        #expect(harness.hello.flags.destructionConditions == .systemDisconnection)
        #expect(harness.hello.flags.adoptsScenes)
        #expect(harness.hello.flags.supportsMultipleScenes)
        #expect(harness.hello.flags.implementedCallbacks == [.willConnectTo, .sceneDidEnterBackground])
        try await harness.terminate()
        let plain = try await AppHarness.launch()
        #expect(!plain.hello.flags.adoptsScenes)
        try await plain.terminate()
    }

    @Test func aSceneConnectsComesForwardAndTheAppsNotificationsComeOnItsEdgesOnly() async throws {
        let scenes = RecordingSceneDelegate()
        let harness = try await AppHarness.launch(sceneDelegate: scenes)
        let app = harness.application
        var posted: [String] = []
        app.addObserver(for: .willEnterForeground) { posted.append("willEnterForeground \(scenes.calls.count)") }
        app.addObserver(for: .didBecomeActive) { posted.append("didBecomeActive \(scenes.calls.count)") }
        let options = SceneConnectionOptions(urlContexts: ["notes://7"], notificationResponse: #"{"aps":{}}"#)
        _ = try await harness.send(.didFinishLaunching, state: .background).get()
        _ = try await harness.send(.configurationForConnecting, state: .background, scene: nil).get()
        _ = try await harness.send(
            .willConnectTo, state: .background, scene: Self.scene(Self.one, Self.first, .unattached, options: options)
        ).get()
        _ = try await harness.send(
            .sceneWillEnterForeground, state: .inactive,
            scene: Self.scene(Self.one, Self.first, .foregroundInactive, posts: .willEnterForeground)).get()
        _ = try await harness.send(
            .sceneDidBecomeActive, state: .active,
            scene: Self.scene(Self.one, Self.first, .foregroundActive, posts: .didBecomeActive)).get()
        // A second window comes forward while the app is already in the foreground: no app notification again.
        _ = try await harness.send(
            .willConnectTo, state: .active, scene: Self.scene(Self.two, Self.second, .unattached)).get()
        _ = try await harness.send(
            .sceneWillEnterForeground, state: .active, scene: Self.scene(Self.two, Self.second, .foregroundInactive)
        ).get()
        #expect(scenes.calls == [
            "willConnectTo scene1", "sceneWillEnterForeground scene1", "sceneDidBecomeActive scene1",
            "willConnectTo scene2", "sceneWillEnterForeground scene2",
        ])
        #expect(posted == ["willEnterForeground 2", "didBecomeActive 3"], "after the scene delegate's method")
        #expect(harness.delegate.calls == [.didFinishLaunching], "no app-delegate lifecycle callbacks")
        #expect(scenes.connected.first?.options == options)
        #expect(app.connectedScenes.map(\.id) == [Self.one, Self.two])
        #expect(app.connectedScenes.map(\.state) == [.foregroundActive, .foregroundInactive])
        #expect(app.openSessions.map(\.persistentIdentifier) == [Self.first, Self.second])
        #expect(app.scenePhase == .active)
        try await harness.terminate()
        #expect(app.connectedScenes.isEmpty)
    }

    @Test func theRestorationPayloadIsAnsweredKeptAndHandedBackAtReconnect() async throws {
        let scenes = RecordingSceneDelegate()
        scenes.payload = #"{"note":7}"#
        let harness = try await AppHarness.launch(sceneDelegate: scenes)
        _ = try await harness.send(
            .willConnectTo, state: .background, scene: Self.scene(Self.one, Self.first, .unattached)).get()
        _ = try await harness.send(
            .sceneDidEnterBackground, state: .background, scene: Self.scene(Self.one, Self.first, .background)).get()
        let answer = try await harness.send(
            .stateRestorationActivity, state: .background, scene: Self.scene(Self.one, Self.first, .background)).get()
        #expect(try CallbackAnswer(json: answer).restoration == #"{"note":7}"#)
        #expect(harness.application.openSessions.first?.stateRestorationActivity == #"{"note":7}"#)
        _ = try await harness.send(
            .sceneDidDisconnect, state: .background, scene: Self.scene(Self.one, Self.first, .unattached)).get()
        #expect(harness.application.connectedScenes.isEmpty)
        #expect(harness.application.openSessions.count == 1, "the session survives its scene")
        _ = try await harness.send(
            .willConnectTo, state: .background,
            scene: Self.scene(Self.two, Self.first, .unattached, restoration: #"{"note":7}"#)).get()
        _ = try await harness.send(
            .restoreInteractionState, state: .background,
            scene: Self.scene(Self.two, Self.first, .unattached, restoration: #"{"note":7}"#)).get()
        #expect(scenes.connected.last?.session.stateRestorationActivity == #"{"note":7}"#)
        #expect(scenes.calls.last == #"restoreInteractionState {"note":7} scene2"#)
        // Any other answer carries no payload.
        let other = try await harness.send(
            .sceneWillEnterForeground, state: .inactive, scene: Self.scene(Self.two, Self.first, .foregroundInactive)
        ).get()
        #expect(try CallbackAnswer(json: other).restoration == nil)
        try await harness.terminate()
    }

    @Test func discardedSessionsReachTheAppDelegateAsValues() async throws {
        final class Discarding: ApplicationDelegate {
            var discarded: [SceneSessionID] = []
            func didDiscardSceneSessions(_ application: Application, sessions: [SceneSession]) async {
                discarded += sessions.map(\.persistentIdentifier)
            }
        }
        let broker = try await FakeBroker.start(path: FakeBroker.temporaryPath())
        let application = Application(id: "com.example.Discard", options: ApplicationOptions(socketPath: broker.path))
        let delegate = Discarding()
        let running = Task { @MainActor in
            await application.run(delegate: delegate, sceneDelegate: RecordingSceneDelegate())
        }
        _ = await broker.nextRequest()
        let discard = CallbackParams(callbackID: 1, callback: .didDiscardSceneSessions, state: .active,
                                     budgetMs: 1000, sessions: [Self.first, Self.second])
        _ = try await broker.send(discard).get()
        #expect(delegate.discarded == [Self.first, Self.second])
        _ = try await broker.send(CallbackParams(callbackID: 2, callback: .willTerminate, state: .notRunning,
                                                 budgetMs: 1000)).get()
        await running.value
        await broker.stop()
    }

    @Test func scenePhaseFollowsSwiftUIsRulesPerSceneAndForTheApp() async throws {
        let harness = try await AppHarness.launch(sceneDelegate: RecordingSceneDelegate())
        let app = harness.application
        var appPhases = app.scenePhases().makeAsyncIterator()
        #expect(await appPhases.next() == .background)
        var unconnected = app.scenePhases(of: Self.one).makeAsyncIterator()
        #expect(await unconnected.next() == nil, "not connected: finished")
        _ = try await harness.send(
            .willConnectTo, state: .background, scene: Self.scene(Self.one, Self.first, .unattached)).get()
        var scenePhases = app.scenePhases(of: Self.one).makeAsyncIterator()
        #expect(await scenePhases.next() == .background)
        for (callback, state) in [
            (LifecycleCallback.sceneWillEnterForeground, SceneState.foregroundInactive),
            (.sceneDidBecomeActive, .foregroundActive), (.sceneWillResignActive, .foregroundInactive),
            (.sceneDidEnterBackground, .background),
        ] {
            _ = try await harness.send(callback, state: .active, scene: Self.scene(Self.one, Self.first, state)).get()
        }
        for expected in [ScenePhase.inactive, .active, .inactive, .background] {
            #expect(await scenePhases.next() == expected)
            #expect(await appPhases.next() == expected)
        }
        _ = try await harness.send(
            .sceneDidDisconnect, state: .background, scene: Self.scene(Self.one, Self.first, .unattached)).get()
        #expect(await scenePhases.next() == nil, "a disconnected scene's stream ends")
        // Two scenes: the app is active while any is, background only when every one is.
        #expect(ScenePhase(aggregating: [.foregroundActive, .background]) == .active)
        #expect(ScenePhase(aggregating: [.foregroundInactive, .background]) == .inactive)
        #expect(ScenePhase(aggregating: [.background, .unattached]) == .background)
        #expect(ScenePhase(aggregating: []) == .background)
        try await harness.terminate()
    }
}
