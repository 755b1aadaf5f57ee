import LifebusLifecycle

/// What the device knows of one scene session of an app (`AppRecord.scenes`): its persistent id, its connected
/// scene and that scene's state, and the restoration payload the app last gave for it. A session outlives its scene
/// (reclaimed, the process ended) and ends when it is discarded (its record is removed then).
///
/// Invariants: `scene` and `state` are both `nil` (no scene connected) or both set; `restorePending`,
/// `restorationWithheld` and `saved` only while a scene is connected; `restorationWithheld` only with a payload, and
/// not with `restorePending`.
struct SceneSessionRecord: Sendable, Equatable {
    let id: SceneSessionID
    /// The connected scene, if any.
    var scene: SceneID?
    /// The connected scene's state; `nil` while no scene is connected.
    var state: SceneState?
    /// The last `stateRestorationActivity` answer's payload (JSON text).
    var restoration: String?
    /// `configurationForConnecting` was answered for the session: it is not new (a reconnect skips it).
    var configured = false
    /// The scene is part of the app's window set: it comes to the foreground with the app (a new window, a
    /// reconnected session, the session a launch connects), and goes with it.
    var shown = false
    /// The connected scene still has to be handed its restoration payload (`restoreInteractionState`).
    var restorePending = false
    /// The connected scene connected while protected data was unavailable (a background launch behind the lock,
    /// `DeviceConfiguration.connectsSceneAtBackgroundLaunch`): `willConnectTo` carried no payload, and it is still
    /// owed. Before ios15 the scene's next callback sent while protected data is available carries it; from ios15
    /// the app's next step while it runs with protected data available turns it into a `restoreInteractionState`
    /// (`restorePending`, `Device.handOverWithheldPayloads`). Never set with `restorePending`.
    var restorationWithheld = false
    /// `stateRestorationActivity` was answered for the scene being disconnected.
    var saved = false
    /// When the session's scene last became active, in the app's own count: a relaunch reconnects the session used
    /// most recently.
    var lastUsed: UInt64 = 0

    init(id: SceneSessionID) {
        self.id = id
    }

    /// The scene and the session, while a scene is connected.
    var ref: SceneRef? {
        scene.map { SceneRef(scene: $0, session: id) }
    }

    /// Where the session's scene is, for the move tables.
    var phase: Device.ScenePhase {
        Device.ScenePhase(state: state, configured: configured, restorePending: restorePending, saved: saved)
    }
}
