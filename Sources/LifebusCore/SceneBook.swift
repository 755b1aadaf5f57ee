import LifebusLifecycle

/// A scene app's sessions and scenes, as the device keeps them in the app's record: the sessions oldest first, the
/// numbers given so far (never reused), the sessions discarded that the app is still to be told of, the session
/// whose scene is active while the app is, and what the next connecting scene is opened with.
///
/// Invariants (`Device.invariantViolations`): session ids are unique, increasing and at most `lastSession`; scene
/// ids unique and at most `lastScene`; at most one scene `foregroundActive`; `focus` names a session of the book;
/// `discarded` names none; `connectingInBackground` names a session of the book, and only while the app runs.
struct SceneBook: Sendable {
    var sessions: [SceneSessionRecord] = []
    var lastSession: UInt32 = 0
    var lastScene: UInt32 = 0
    /// Sessions discarded and not yet announced (`didDiscardSceneSessions`): at the next launch, or at once when the
    /// user closed them from a running app.
    var discarded: [SceneSessionID] = []
    /// The session whose scene is active when the app is (iPad focus; the newest window).
    var focus: SceneSessionID?
    /// A launch's connection options, for the scene it connects (`willConnectTo`), or for the focused scene
    /// (`openURLContexts`) when it is already connected.
    var pendingOptions: SceneConnectionOptions?
    /// The session a `closeScene` or `reclaimScene` work is about (`nil` for a reclaim: every background scene).
    var target: SceneSessionID?
    /// The session whose `configurationForConnecting` is outstanding.
    var configuring: SceneSessionID?
    /// The outstanding scene callback's scene and its move, journaled with its transition (kept here, not in
    /// `Outstanding`, which the app-delegate path copies on every answer).
    var outstandingScene: SceneTransition?
    /// A `home` is destroying the shown scenes (`userInitiatedDismissal`, S42): they disconnect instead of entering
    /// the background, until their discarded sessions are announced.
    var dismissing = false
    /// The session a background launch connects into the background (`DeviceConfiguration
    /// .connectsSceneAtBackgroundLaunch`), from `didFinishLaunching` until its scene is there.
    var connectingInBackground: SceneSessionID?
    /// Counts scene activations, for `SceneSessionRecord.lastUsed`.
    var uses: UInt64 = 0
    /// The end of a scene launch's `scene-create` budget, from `didFinishLaunching` until the first scene is
    /// active: the launch's scene callbacks get no more than what is left of it.
    var launchDeadline: Instant?

    /// The position of `session` in `sessions`.
    func position(of session: SceneSessionID) -> Int? {
        sessions.firstIndex { $0.id == session }
    }

    /// The position of the session whose scene is `scene`.
    func position(of scene: SceneID) -> Int? {
        sessions.firstIndex { $0.scene == scene }
    }

    /// A new session, shown and focused (`configurationForConnecting` still to come).
    mutating func newSession() -> Int {
        lastSession += 1
        var session = SceneSessionRecord(id: SceneSessionID(lastSession))
        session.shown = true
        sessions.append(session)
        focus = session.id
        return sessions.count - 1
    }

    /// The connected scenes.
    var connectedCount: Int {
        sessions.reduce(0) { $0 + ($1.scene == nil ? 0 : 1) }
    }

    /// The state the app takes from its scenes (`UIApplication.applicationState`: the most active scene's);
    /// `nil` when no scene is in the foreground (the app is then `background`, or `suspended` once settled).
    var foregroundState: LifecycleState? {
        var inactive = false
        for session in sessions {
            switch session.state {
            case .foregroundActive: return .active
            case .foregroundInactive: inactive = true
            case .background, .unattached, nil: break
            }
        }
        return inactive ? .inactive : nil
    }
}
