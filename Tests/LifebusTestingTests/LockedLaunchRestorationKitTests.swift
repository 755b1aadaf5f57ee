import Lifebus
import LifebusTesting
import Testing

/// A scene app launched behind the lock while protected data is gone gets its session's payload when its scene
/// connects after the unlock (`Protocol/lifecycle.md` S45), through the SDK: the session's
/// `stateRestorationActivity` is set when `scene(_:willConnectTo:options:)` runs, and the scene delegate is asked to
/// restore it where the profile has `restoreInteractionState` — in memory, on the real core, with a real
/// `Application` relaunched by the push.
@Suite(.hangGuard)
@MainActor
struct LockedLaunchRestorationKitTests {
    nonisolated static let id: AppID = "com.example.Notes"
    nonisolated static let payload = #"{"draft":1}"#

    /// Saves `payload` for its scene and records what the SDK hands it: each connecting scene's session payload,
    /// each restoration, and the sessions' payloads when it hears protected data came back.
    final class Notes: ApplicationDelegate, SceneDelegate {
        var calls: [String] = []

        func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
            calls.append("willConnectTo \(session.stateRestorationActivity ?? "nil")")
        }

        func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async {
            calls.append("restoreInteractionState \(activity)")
        }

        func stateRestorationActivity(for scene: Scene) async -> String? {
            LockedLaunchRestorationKitTests.payload
        }

        func protectedDataDidBecomeAvailable(_ application: Application) async {
            let kept = application.openSessions.map { $0.stateRestorationActivity ?? "nil" }
            calls.append("protectedDataDidBecomeAvailable \(kept.joined(separator: ","))")
        }
    }

    @Test(arguments: [Profile.ios13, .ios15])
    func aSceneLaunchedBehindTheLockGetsItsPayloadWhenItConnectsAfterTheUnlock(_ profile: Profile) async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: profile)
        let notes = Notes()
        let app = try await bus.sceneAppKilledBehindTheLock(Self.id, delegate: notes)
        notes.calls.removeAll()

        try await bus.push(app)
        try await bus.expect(app, state: .suspended)
        #expect(notes.calls.isEmpty, "no scene connects behind the lock")
        try await bus.unlock()
        try await bus.fire(.launch(app.id))
        try await bus.expect(app, scene: SceneID(2), state: .foregroundActive)
        let restores = profile.restoresInteractionState ? ["restoreInteractionState \(Self.payload)"] : []
        #expect(notes.calls == [
            "willConnectTo \(Self.payload)", "protectedDataDidBecomeAvailable \(Self.payload)",
        ] + restores)
        await bus.shutdown()
    }
}
