public import LifebusLifecycle

/// One connected scene and the session it shows: what a scene callback, a scene record and a scene state change
/// name. A plain value.
public struct SceneRef: Sendable, Hashable, CustomStringConvertible {
    public var scene: SceneID
    public var session: SceneSessionID

    public init(scene: SceneID, session: SceneSessionID) {
        self.scene = scene
        self.session = session
    }

    public var description: String {
        "\(scene)/\(session)"
    }
}

/// A scene callback's move of its scene, journaled with its `Transition` (whose `from`/`to` stay the app's
/// aggregate states).
public struct SceneTransition: Sendable, Hashable {
    public var ref: SceneRef
    public var from: SceneState
    public var to: SceneState

    public init(ref: SceneRef, from: SceneState, to: SceneState) {
        self.ref = ref
        self.from = from
        self.to = to
    }
}
