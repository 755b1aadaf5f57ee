import Lifebus
import LifebusTesting
import Testing

/// With `connectsSceneAtBackgroundLaunch` (`Protocol/lifecycle.md` S48–S52), a scene app launched into the background
/// behind the lock connects its scene there without its session's payload, and the SDK hands the payload over after
/// the unlock: from ios15 by `scene(_:restoreInteractionStateWith:)` right after the app's
/// `protectedDataDidBecomeAvailable` while it still runs in the background (as S51's task does); before ios15 in
/// `session.stateRestorationActivity` on the scene's next callback (the user's launch, which brings that scene up
/// without a second connect) — in memory, on the real core, with a real `Application` relaunched by a silent push.
@Suite(.hangGuard)
@MainActor
struct BackgroundLaunchSceneKitTests {
    nonisolated static let id: AppID = "com.example.Notes"
    nonisolated static let payload = #"{"draft":1}"#

    /// Begins a background task at a silent push (never ended: the app keeps running in the background), saves
    /// `payload` for its scene, and records what the SDK hands it.
    final class Notes: ApplicationDelegate, SceneDelegate {
        var calls: [String] = []

        func didReceiveRemoteNotification(_ application: Application, payload: String) async
            -> BackgroundFetchResult
        {
            calls.append("push")
            _ = try? await application.beginBackgroundTask(name: "sync")
            return .newData
        }

        func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
            calls.append("willConnectTo \(session.stateRestorationActivity ?? "nil")")
        }

        func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async {
            calls.append("restoreInteractionState \(activity)")
        }

        func sceneDidEnterBackground(_ scene: Scene) async {
            calls.append("sceneDidEnterBackground")
        }

        func sceneWillEnterForeground(_ scene: Scene) async {
            calls.append("sceneWillEnterForeground \(scene.session.stateRestorationActivity ?? "nil")")
        }

        func stateRestorationActivity(for scene: Scene) async -> String? {
            BackgroundLaunchSceneKitTests.payload
        }

        func protectedDataDidBecomeAvailable(_ application: Application) async {
            calls.append("protectedDataDidBecomeAvailable")
        }
    }

    @Test(arguments: [Profile.ios13, .ios15])
    func aPushLaunchBehindTheLockConnectsTheSceneAndTheUnlockHandsItThePayload(_ profile: Profile) async throws {
        let bus = try await LifebusTestBus(
            .inMemory, profile: profile, knobs: DeviceKnobs(connectsSceneAtBackgroundLaunch: true))
        let notes = Notes()
        let app = try await bus.sceneAppKilledBehindTheLock(Self.id, delegate: notes)
        notes.calls.removeAll()

        try await bus.push(app)
        try await bus.expect(app, state: .background)
        #expect(notes.calls == ["willConnectTo nil", "sceneDidEnterBackground", "push"], "withheld behind the lock")
        notes.calls.removeAll()
        try await bus.unlock()
        let restores = profile.restoresInteractionState ? ["restoreInteractionState \(Self.payload)"] : []
        #expect(notes.calls == ["protectedDataDidBecomeAvailable"] + restores)
        notes.calls.removeAll()
        try await bus.fire(.launch(app.id))
        try await bus.expect(app, scene: SceneID(2), state: .foregroundActive)
        #expect(notes.calls == ["sceneWillEnterForeground \(Self.payload)"], "no second connect; the payload is kept")
        await bus.shutdown()
    }
}
