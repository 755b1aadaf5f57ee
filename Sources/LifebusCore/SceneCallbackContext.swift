public import LifebusLifecycle

/// What a callback request carries beyond the app-delegate lifecycle's: for a scene callback its scene, the scene's
/// state after it, the `UIApplication` notification UIKit posts with it (on an aggregate edge only), the connection
/// options (`willConnectTo`, `openURLContexts`) and the session's restoration payload (`willConnectTo`,
/// `restoreInteractionState`); for `didDiscardSceneSessions` the discarded sessions; for the background-execution
/// callbacks their task (`performBackgroundTask`, `backgroundTaskWillExpire`) or push payload
/// (`didReceiveRemoteNotification`, `didReceiveNotificationResponse`); for `didFinishLaunching` its `launchReason`
/// (a background launch) and the `launchOptions` of an app that does not use scenes; for `openURL` its `url`.
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
        let task: BackgroundTaskRequest?
        let payload: String?
        let launchReason: LaunchReason?
        let launchOptions: LaunchPayload?
        let url: String?

        init(
            scene: SceneRef? = nil, sceneState: SceneState? = nil, posts: ApplicationNotification? = nil,
            options: SceneConnectionOptions? = nil, restoration: String? = nil, sessions: [SceneSessionID] = [],
            task: BackgroundTaskRequest? = nil, payload: String? = nil, launchReason: LaunchReason? = nil,
            launchOptions: LaunchPayload? = nil, url: String? = nil
        ) {
            self.scene = scene
            self.sceneState = sceneState
            self.posts = posts
            self.options = options
            self.restoration = restoration
            self.sessions = sessions
            self.task = task
            self.payload = payload
            self.launchReason = launchReason
            self.launchOptions = launchOptions
            self.url = url
        }
    }

    private let contents: Contents

    /// A scene callback's context.
    public init(
        scene: SceneRef, sceneState: SceneState, posts: ApplicationNotification? = nil,
        options: SceneConnectionOptions? = nil, restoration: String? = nil
    ) {
        contents = Contents(
            scene: scene, sceneState: sceneState, posts: posts, options: options, restoration: restoration)
    }

    /// An app-delegate callback's context that names sessions (`didDiscardSceneSessions`).
    public init(sessions: [SceneSessionID]) {
        contents = Contents(sessions: sessions)
    }

    /// A `BGTask` callback's context (`performBackgroundTask`, `backgroundTaskWillExpire`): the task's request.
    public init(task: BackgroundTaskRequest) {
        contents = Contents(task: task)
    }

    /// A silent push's context (`didReceiveRemoteNotification`): its payload, JSON text.
    public init(payload: String) {
        contents = Contents(payload: payload)
    }

    /// A `didFinishLaunching` context: why the app was launched (a background launch), what it was launched with
    /// (an app that does not use scenes). Not both `nil`.
    public init(launchReason: LaunchReason?, launchOptions: LaunchPayload?) {
        contents = Contents(launchReason: launchReason, launchOptions: launchOptions)
    }

    /// An `openURL` context: the URL opened.
    public init(url: String) {
        contents = Contents(url: url)
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
    /// The task a `performBackgroundTask` or `backgroundTaskWillExpire` is for.
    public var task: BackgroundTaskRequest? { contents.task }
    /// A `didReceiveRemoteNotification`'s payload, JSON text.
    public var payload: String? { contents.payload }
    /// Why a `didFinishLaunching` launch happened, when it is a background launch (`nil`: the user's).
    public var launchReason: LaunchReason? { contents.launchReason }
    /// `didFinishLaunching`'s launch options (an app that does not use scenes, launched with a URL or a tap).
    public var launchOptions: LaunchPayload? { contents.launchOptions }
    /// The URL `openURL` opens.
    public var url: String? { contents.url }

    public static func == (lhs: SceneCallbackContext, rhs: SceneCallbackContext) -> Bool {
        lhs.contents === rhs.contents
            || (lhs.scene == rhs.scene && lhs.sceneState == rhs.sceneState && lhs.posts == rhs.posts
                && lhs.options == rhs.options && lhs.restoration == rhs.restoration && lhs.sessions == rhs.sessions
                && lhs.task == rhs.task && lhs.payload == rhs.payload && lhs.launchReason == rhs.launchReason
                && lhs.launchOptions == rhs.launchOptions && lhs.url == rhs.url)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scene)
        hasher.combine(sceneState)
        hasher.combine(posts)
        hasher.combine(options)
        hasher.combine(restoration)
        hasher.combine(sessions)
        hasher.combine(task)
        hasher.combine(payload)
        hasher.combine(launchReason)
        hasher.combine(launchOptions)
        hasher.combine(url)
    }
}
