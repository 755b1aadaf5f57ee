public import LifebusLifecycle

/// What an app that adopts scenes does at each scene callback the broker sends: the counterpart of
/// `UIWindowSceneDelegate`. Pass one to `ApplicationMain(id:delegate:sceneDelegate:)`: the app then says it adopts
/// scenes in its `hello`, and the broker drives it through the scene-based life cycle (`Protocol/README.md` §10.1).
///
/// Bound to the main actor, like UIKit: every method runs there, one callback at a time; the broker's answer waits
/// until the method returns (the scene budgets apply, as the watchdog's). Every method has a default that does
/// nothing (`stateRestorationActivity(for:)`'s keeps nothing). The process-level callbacks stay the
/// `ApplicationDelegate`'s (`didFinishLaunching`, `configurationForConnecting`, `didDiscardSceneSessions`,
/// `willTerminate`, `didReceiveMemoryWarning`); its `didBecomeActive`, `willResignActive`, `didEnterBackground` and
/// `willEnterForeground` are never called in a scene app (but under a profile without scenes, where the app falls
/// back to the app-delegate life cycle and none of these is called: `Application.fellBackFromScenes`) — observe the
/// app's aggregate edges with
/// `Application.addObserver(for:_:)` instead.
@MainActor
public protocol SceneDelegate: AnyObject {
    /// `scene(_:willConnectTo:options:)`: a scene connects, to a new session or to one it reconnects (then
    /// `session.stateRestorationActivity` holds what was kept). `options` carries a cold start's URL or push payload,
    /// or the new window's user activity.
    ///
    /// - Parameters:
    ///   - scene: The scene connecting.
    ///   - session: Its session, new or kept.
    ///   - options: A cold start's URL or push payload, or the new window's user activity.
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async
    /// `scene(_:restoreInteractionStateWith:)` (ios15 and later): restore what the session's payload says.
    ///
    /// - Parameters:
    ///   - scene: The scene connecting.
    ///   - activity: The payload kept with its session (JSON text).
    func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async
    /// The scene is coming to the foreground (on its way to active).
    ///
    /// - Parameter scene: The scene receiving the callback.
    func sceneWillEnterForeground(_ scene: Scene) async
    /// The scene is active: restart what was paused.
    ///
    /// - Parameter scene: The scene receiving the callback.
    func sceneDidBecomeActive(_ scene: Scene) async
    /// The scene is about to become inactive (an interruption, the switcher, the way to the background).
    ///
    /// - Parameter scene: The scene receiving the callback.
    func sceneWillResignActive(_ scene: Scene) async
    /// The scene is in the background: save its state (the app delegate's `didEnterBackground` is not called).
    ///
    /// - Parameter scene: The scene receiving the callback.
    func sceneDidEnterBackground(_ scene: Scene) async
    /// What to keep with the scene's session before it disconnects (JSON text), handed back at its next
    /// `willConnectTo`; `nil` keeps nothing.
    ///
    /// - Parameter scene: The scene whose session is asked.
    /// - Returns: The payload to keep (JSON text), or `nil` to keep nothing.
    func stateRestorationActivity(for scene: Scene) async -> String?
    /// The scene is gone (reclaimed, or closed); its session survives unless discarded.
    ///
    /// - Parameter scene: The scene receiving the callback.
    func sceneDidDisconnect(_ scene: Scene) async
    /// `scene(_:openURLContexts:)`: URLs to open in a connected scene.
    ///
    /// - Parameters:
    ///   - scene: The scene that opens them.
    ///   - urls: The URLs, as text.
    func scene(_ scene: Scene, openURLContexts urls: [String]) async
}

extension SceneDelegate {
    public func scene(_ scene: Scene, willConnectTo session: SceneSession, options: SceneConnectionOptions) async {}
    public func scene(_ scene: Scene, restoreInteractionStateWith activity: String) async {}
    public func sceneWillEnterForeground(_ scene: Scene) async {}
    public func sceneDidBecomeActive(_ scene: Scene) async {}
    public func sceneWillResignActive(_ scene: Scene) async {}
    public func sceneDidEnterBackground(_ scene: Scene) async {}
    public func stateRestorationActivity(for scene: Scene) async -> String? { nil }
    public func sceneDidDisconnect(_ scene: Scene) async {}
    public func scene(_ scene: Scene, openURLContexts urls: [String]) async {}
}
