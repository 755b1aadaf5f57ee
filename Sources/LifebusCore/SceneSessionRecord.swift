import LifebusLifecycle

/// What the device knows of one scene session of an app (`AppRecord.sessions`): its persistent id, its connected
/// scene and that scene's state, and the restoration payload the app last gave for it. A session outlives its scene
/// (reclaimed, the process ended) and ends when it is discarded (its record is removed then).
///
/// Invariant: `scene` and `state` are both `nil` (no scene connected) or both set.
struct SceneSessionRecord: Sendable, Equatable {
    let id: SceneSessionID
    /// The connected scene, if any.
    var scene: SceneID?
    /// The connected scene's state; `nil` while no scene is connected.
    var state: SceneState?
    /// The last `stateRestorationActivity` answer's payload (JSON text).
    var restoration: String?
    /// When the session last had a foreground scene, in the app's own count (a relaunch reconnects the session
    /// used most recently).
    var lastUsed: UInt64 = 0

    init(id: SceneSessionID) {
        self.id = id
    }

    /// The scene and the session, while a scene is connected.
    var ref: SceneRef? {
        scene.map { SceneRef(scene: $0, session: id) }
    }
}
