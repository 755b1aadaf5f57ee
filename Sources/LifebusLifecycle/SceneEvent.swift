/// What the controller asks of one scene of a scene app (`lifebus fire scene ACTION`), in the device's terms.
/// Scenes and sessions are named by the numbers the device gave them (`SceneID`, `SceneSessionID`).
public enum SceneEvent: Sendable, Hashable {
    /// The user opens a new window of the app: a new session, whose scene comes to the foreground. An app that does
    /// not support multiple scenes can have one scene only.
    case open(AppID, SceneConnectionOptions)
    /// A switcher swipe of one scene; `nil` closes the whole app (`--app`: every scene, then the process as the
    /// profile's `switcherClose` says).
    case close(AppID, SceneID?)
    /// The system disconnects a background scene to reclaim its resources: its restoration payload is asked for and
    /// kept; the session survives.
    case reclaim(AppID, SceneID)
    /// The user reopens a session whose scene was disconnected: a new scene for the same session, handed its
    /// restoration payload; no `configurationForConnecting`.
    case reconnect(AppID, SceneSessionID)
    /// iPad: the user makes one of the app's foreground scenes the active one; the others become inactive.
    case focus(AppID, SceneID)

    /// The app the event names.
    public var app: AppID {
        switch self {
        case .open(let app, _), .close(let app, _), .reclaim(let app, _), .reconnect(let app, _), .focus(let app, _):
            app
        }
    }
}
