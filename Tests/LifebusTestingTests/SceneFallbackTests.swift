import Lifebus
import LifebusLifecycle
import LifebusTesting
import Testing

/// An app with a scene delegate under `ios7`, through the kit on both transports: the broker refuses its scenes and
/// the app falls back to the app-delegate life cycle (`Application.fellBackFromScenes`), its app delegate getting
/// every callback and its scene delegate none; with `fallsBackFromScenes` off the refusal stays the launch's error.
@Suite(.hangGuard)
@MainActor
struct SceneFallbackTests {
    /// Both delegates, counting the scene callbacks it gets.
    final class Both: ApplicationDelegate, SceneDelegate {
        var sceneCallbacks = 0

        func sceneDidBecomeActive(_ scene: Scene) async { sceneCallbacks += 1 }
        func sceneDidEnterBackground(_ scene: Scene) async { sceneCallbacks += 1 }
    }

    @Test(arguments: [LifebusTestBus.Transport.inMemory, .live])
    func aSceneAppRunsTheAppDelegateLifeCycleUnderIOS7(transport: LifebusTestBus.Transport) async throws {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let both = Both()
        var options = ApplicationOptions()
        options.implementedCallbacks = [.didEnterBackground, .sceneDidEnterBackground]
        let app = try await bus.launch("com.example.Both", delegate: both, sceneDelegate: both, options: options)
        #expect(app.application?.fellBackFromScenes == true)
        #expect(bus.timeline.callbacks(of: app.id) == [.didFinishLaunching, .didBecomeActive], "launched as iOS 7 does")
        try await bus.fire(.home)
        try await bus.expect(app, callbacks: [.willResignActive, .didEnterBackground])
        try await bus.expect(app, state: .suspended)
        #expect(both.sceneCallbacks == 0)
        await bus.shutdown()
    }

    @Test(arguments: [LifebusTestBus.Transport.inMemory, .live])
    func withoutTheFallbackTheRefusalIsTheLaunchsError(transport: LifebusTestBus.Transport) async throws {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let both = Both()
        let options = ApplicationOptions(fallsBackFromScenes: false)
        await #expect(throws: LifebusTestBusError.self) {
            _ = try await bus.launch("com.example.Both", delegate: both, sceneDelegate: both, options: options)
        }
        await bus.shutdown()
    }
}
