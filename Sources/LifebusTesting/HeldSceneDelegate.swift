import Lifebus

/// A test's scene delegate behind the app's `CallbackGate` (`LifebusTestBus.hold(_:)` holds scene callbacks as it
/// holds the app delegate's): each scene callback passes the gate, then runs the test's method. A dropped gate keeps
/// no restoration payload. Owns nothing but the two references.
@MainActor
final class HeldSceneDelegate: SceneDelegate {
    private let delegate: any SceneDelegate
    private let gate: CallbackGate

    init(_ delegate: any SceneDelegate, gate: CallbackGate) {
        self.delegate = delegate
        self.gate = gate
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {
        if await gate.pass() { await delegate.scene(scene, willConnectTo: session, options: options) }
    }

    func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async {
        if await gate.pass() { await delegate.scene(scene, restoreInteractionStateWith: activity) }
    }

    func sceneWillEnterForeground(_ scene: Scene) async {
        if await gate.pass() { await delegate.sceneWillEnterForeground(scene) }
    }

    func sceneDidBecomeActive(_ scene: Scene) async {
        if await gate.pass() { await delegate.sceneDidBecomeActive(scene) }
    }

    func sceneWillResignActive(_ scene: Scene) async {
        if await gate.pass() { await delegate.sceneWillResignActive(scene) }
    }

    func sceneDidEnterBackground(_ scene: Scene) async {
        if await gate.pass() { await delegate.sceneDidEnterBackground(scene) }
    }

    func stateRestorationActivity(for scene: Scene) async -> String? {
        guard await gate.pass() else { return nil }
        return await delegate.stateRestorationActivity(for: scene)
    }

    func sceneDidDisconnect(_ scene: Scene) async {
        if await gate.pass() { await delegate.sceneDidDisconnect(scene) }
    }

    func scene(_ scene: Scene, openURLContexts urls: [String]) async {
        if await gate.pass() { await delegate.scene(scene, openURLContexts: urls) }
    }
}
