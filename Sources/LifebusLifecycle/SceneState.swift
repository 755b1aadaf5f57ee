/// One scene's state (`UIScene.ActivationState`). A plain value; the raw value is the wire spelling.
///
/// `unattached`: connecting, or not yet in the foreground. `foregroundInactive`: on screen without events.
/// `foregroundActive`: on screen receiving events. `background`: off screen. Suspension is the process's, not the
/// scene's: the app's `LifecycleState` is `suspended` when nothing of it runs. Declaration order is activity order:
/// the app's state derives from its most active scene.
public enum SceneState: String, Sendable, CaseIterable, Hashable {
    case unattached
    case foregroundInactive
    case foregroundActive
    case background

    /// `foregroundInactive` or `foregroundActive`.
    public var isForeground: Bool {
        self == .foregroundInactive || self == .foregroundActive
    }
}
