public import LifebusLifecycle

/// A connected scene as the app sees it (`UIScene`): one window of the app, its session and its state.
///
/// A plain value, a snapshot: `Application.connectedScenes` holds the live ones. Invariant: `state` is the state the
/// broker last told of (`foregroundActive` once `sceneDidBecomeActive` returned, and so on); a scene that
/// disconnected is gone from `connectedScenes`, its session stays in `Application.openSessions` until discarded.
public struct Scene: Sendable, Hashable, Identifiable {
    /// Numbered per app from 1; a reconnect makes a new scene (a new id) for the same session.
    public let id: SceneID
    /// The session the scene shows, as of the scene's last callback (its `stateRestorationActivity` included: a
    /// payload withheld at a connect behind the lock arrives on a later callback).
    public internal(set) var session: SceneSession
    /// `UIScene.activationState`.
    public internal(set) var state: SceneState
    /// `UIScene.destructionConditions` (iOS 26+): the app's, `ApplicationOptions.destructionConditions`, which every
    /// scene it connects declares.
    public let destructionConditions: SceneDestructionConditions

    /// SwiftUI's phase of this scene (`ScenePhase(state)`).
    public var phase: ScenePhase { ScenePhase(state) }
}

/// A scene session (`UISceneSession`): what survives a scene's disconnect and the process's relaunch, until the user
/// closes it in the app switcher (then `ApplicationDelegate.didDiscardSceneSessions`).
///
/// A plain value. Invariant: `persistentIdentifier` is the broker's, unique per app for the session's lifetime.
public struct SceneSession: Sendable, Hashable {
    /// `UISceneSession.persistentIdentifier`.
    public let persistentIdentifier: SceneSessionID
    /// `UISceneSession.stateRestorationActivity`: the payload the app answered `stateRestorationActivity(for:)` with
    /// before the session's last scene disconnected (JSON text), handed back when a scene connects to it again;
    /// `nil` when none is kept. Set before `SceneDelegate.scene(_:willConnectTo:options:)` runs. By default no scene
    /// connects while the device's protected data is unavailable: an app launched behind the lock finds it set in the
    /// scene that connects after the unlock. A broker run with `--background-launch-scene connects` connects one at a
    /// background launch behind the lock with this `nil`, and hands the payload over after the unlock:
    /// `SceneDelegate.scene(_:restoreInteractionStateWith:)` from ios15, else on the scene's next callback, which
    /// sets it here first (`Protocol/lifecycle.md` S50, S51).
    public internal(set) var stateRestorationActivity: String?

    /// Makes a session value, e.g. to call a scene delegate in a unit test.
    ///
    /// - Parameters:
    ///   - persistentIdentifier: The broker's id of the session.
    ///   - stateRestorationActivity: The payload kept with it; `nil` by default.
    public init(persistentIdentifier: SceneSessionID, stateRestorationActivity: String? = nil) {
        self.persistentIdentifier = persistentIdentifier
        self.stateRestorationActivity = stateRestorationActivity
    }
}

/// SwiftUI's `ScenePhase`, from the same facts the broker sends (`SCENES.md` §3): a scene's phase follows its state
/// (`foregroundActive` is `active`, `foregroundInactive` is `inactive`, `background` and `unattached` are
/// `background`); the app's is the most active of its scenes' (`active` if any scene is active, `background` only
/// when every scene is, or when none is connected). Ordered `background < inactive < active`.
public enum ScenePhase: String, Sendable, Hashable, CaseIterable, Comparable {
    /// No scene in the foreground: every scene is in the background or unattached (or none is connected).
    case background
    /// In the foreground but not receiving events.
    case inactive
    /// In the foreground and receiving events.
    case active

    /// A scene's phase from its state.
    ///
    /// - Parameter state: The scene's state: `foregroundActive` gives `active`, `foregroundInactive` gives
    ///   `inactive`, the others `background`.
    public init(_ state: SceneState) {
        switch state {
        case .foregroundActive: self = .active
        case .foregroundInactive: self = .inactive
        case .background, .unattached: self = .background
        }
    }

    /// The app's phase over its scenes' states: the most active one; `background` without scenes.
    ///
    /// - Parameter states: The states of the app's connected scenes.
    public init(aggregating states: some Sequence<SceneState>) {
        self = states.map(ScenePhase.init).max() ?? .background
    }

    public static func < (lhs: ScenePhase, rhs: ScenePhase) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .background: 0
        case .inactive: 1
        case .active: 2
        }
    }
}
