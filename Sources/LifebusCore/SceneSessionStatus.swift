public import LifebusLifecycle

/// One scene session of an app as `status` reports it (`Device.sessions(of:)`): its id, its scene and the scene's
/// state while one is connected, and whether a restoration payload is kept. A plain value.
public struct SceneSessionStatus: Sendable, Hashable {
    public var session: SceneSessionID
    /// The connected scene; `nil` while the session has none (reclaimed, or the process not running).
    public var scene: SceneID?
    /// The connected scene's state; `nil` with `scene`.
    public var state: SceneState?
    /// The session keeps a restoration payload (the last `stateRestorationActivity` answer that carried one).
    public var hasRestoration: Bool

    public init(session: SceneSessionID, scene: SceneID?, state: SceneState?, hasRestoration: Bool) {
        self.session = session
        self.scene = scene
        self.state = state
        self.hasRestoration = hasRestoration
    }
}
