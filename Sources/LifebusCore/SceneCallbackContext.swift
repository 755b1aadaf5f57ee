public import LifebusLifecycle

/// What a callback request carries beyond the app-delegate lifecycle's: for a scene callback its scene, the scene's
/// state after it, the `UIApplication` notification UIKit posts with it (on an aggregate edge only), the connection
/// options (`willConnectTo`, `openURLContexts`) and the session's restoration payload (`willConnectTo`,
/// `restoreInteractionState`); for `didDiscardSceneSessions` the discarded sessions.
///
/// One word (an immutable shared box), so `Action.sendCallback` stays as small as before for the app-delegate
/// lifecycle, which carries none. Invariant: `scene` and `sceneState` are both set (a scene callback) or both `nil`
/// (an app-delegate one).
public struct SceneCallbackContext: Sendable, Hashable {
    /// The contents, never changed once made.
    private final class Contents: Sendable {
        let scene: SceneRef?
        let sceneState: SceneState?
        let posts: ApplicationNotification?
        let options: SceneConnectionOptions?
        let restoration: String?
        let sessions: [SceneSessionID]

        init(
            scene: SceneRef?, sceneState: SceneState?, posts: ApplicationNotification?,
            options: SceneConnectionOptions?, restoration: String?, sessions: [SceneSessionID]
        ) {
            self.scene = scene
            self.sceneState = sceneState
            self.posts = posts
            self.options = options
            self.restoration = restoration
            self.sessions = sessions
        }
    }

    private let contents: Contents

    /// A scene callback's context.
    public init(
        scene: SceneRef, sceneState: SceneState, posts: ApplicationNotification? = nil,
        options: SceneConnectionOptions? = nil, restoration: String? = nil
    ) {
        contents = Contents(
            scene: scene, sceneState: sceneState, posts: posts, options: options, restoration: restoration,
            sessions: [])
    }

    /// An app-delegate callback's context that names sessions (`didDiscardSceneSessions`).
    public init(sessions: [SceneSessionID]) {
        contents = Contents(
            scene: nil, sceneState: nil, posts: nil, options: nil, restoration: nil, sessions: sessions)
    }

    /// The scene the callback is for; `nil` for an app-delegate callback.
    public var scene: SceneRef? { contents.scene }
    /// The scene's state once the callback is sent (the device's state for the scene from now on).
    public var sceneState: SceneState? { contents.sceneState }
    /// The `UIApplication` notification UIKit posts with this callback: the app's aggregate state crosses an edge.
    public var posts: ApplicationNotification? { contents.posts }
    /// What the connecting scene is opened with (`willConnectTo`), or the URLs opened (`openURLContexts`).
    public var options: SceneConnectionOptions? { contents.options }
    /// The session's restoration payload, JSON text (`willConnectTo`, `restoreInteractionState`).
    public var restoration: String? { contents.restoration }
    /// The discarded sessions (`didDiscardSceneSessions`); empty otherwise.
    public var sessions: [SceneSessionID] { contents.sessions }

    public static func == (lhs: SceneCallbackContext, rhs: SceneCallbackContext) -> Bool {
        lhs.contents === rhs.contents
            || (lhs.scene == rhs.scene && lhs.sceneState == rhs.sceneState && lhs.posts == rhs.posts
                && lhs.options == rhs.options && lhs.restoration == rhs.restoration && lhs.sessions == rhs.sessions)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scene)
        hasher.combine(sceneState)
        hasher.combine(posts)
        hasher.combine(options)
        hasher.combine(restoration)
        hasher.combine(sessions)
    }
}
