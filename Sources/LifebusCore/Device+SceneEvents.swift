import LifebusLifecycle

/// The scene events' rows (`Protocol/lifecycle.md`, "Scenes", S20–S29): what each changes in the app's session book
/// and which works it schedules. Planning runs when the event reaches the head of the queue, so every app is idle;
/// a refused event leaves the device untouched.
extension Device {
    mutating func planScene(_ event: SceneEvent) {
        let app = event.app
        guard let i = index[app] else {
            return refuse(.unknownApp, app: app)
        }
        guard usesScenes(i) else {
            return refuse(.appDoesNotAdoptScenes, app: app)
        }
        switch event {
        case .open(_, let options):  // S20, S21
            guard !locked else { return refuse(.deviceLocked, app: app) }
            guard apps[i].flags.supportsMultipleScenes || apps[i].scenes.connectedCount == 0 else {
                return refuse(.multipleScenesUnsupported, app: app)
            }
            _ = apps[i].scenes.newSession()
            apps[i].scenes.pendingOptions = options.isEmpty ? nil : options
            show(i)
        case .close(_, nil):  // S24
            guard apps[i].state.isRunning else { return refuse(.appNotRunning, app: app) }
            planTerminate(app, byUser: true)
        case .close(_, let scene?):  // S22, S23, S25
            guard let k = apps[i].scenes.position(of: scene) else { return refuse(.unknownScene, app: app) }
            closeScene(i, k)
        case .reclaim(_, let scene):  // S26
            guard let k = apps[i].scenes.position(of: scene) else { return refuse(.unknownScene, app: app) }
            guard apps[i].scenes.sessions[k].state == .background else {
                return refuse(.sceneInForeground, app: app)
            }
            apps[i].scenes.target = apps[i].scenes.sessions[k].id
            schedule(i, .reclaimScene, stage: 0)
        case .reconnect(_, let session):  // S27
            guard !locked else { return refuse(.deviceLocked, app: app) }
            guard let k = apps[i].scenes.position(of: session) else { return refuse(.unknownSession, app: app) }
            guard apps[i].scenes.sessions[k].scene == nil else { return refuse(.sessionConnected, app: app) }
            guard apps[i].flags.supportsMultipleScenes || apps[i].scenes.connectedCount == 0 else {
                return refuse(.multipleScenesUnsupported, app: app)
            }
            apps[i].scenes.sessions[k].shown = true
            apps[i].scenes.focus = session
            show(i)
        case .focus(_, let scene):  // S28
            guard let k = apps[i].scenes.position(of: scene) else { return refuse(.unknownScene, app: app) }
            guard apps[i].scenes.sessions[k].state?.isForeground == true else {
                return refuse(.sceneNotInForeground, app: app)
            }
            apps[i].scenes.focus = apps[i].scenes.sessions[k].id
            refreshFront(stage: 0)
        }
    }

    /// The app's window set changed: it comes to the front with it (its other shown scenes too), or, in front
    /// already, moves its scenes to where the front belongs.
    private mutating func show(_ i: Int) {
        if front == i {
            refreshFront(stage: 0)
        } else {
            bringToFront(i)
        }
        userLaunched(i)  // the user opened it (B43, B45)
    }

    /// A switcher swipe of one scene: the app's last connected scene closes the app (S25); a suspended app's is
    /// discarded without a callback, the app told at its next launch (S23); otherwise the scene goes as the profile
    /// says, its session is discarded and the app told at once (S22), and a front app's other scenes take the
    /// front's state (the newest shown one focused).
    private mutating func closeScene(_ i: Int, _ k: Int) {
        let session = apps[i].scenes.sessions[k].id
        if apps[i].state == .suspended {
            discard(i, k)
            return
        }
        if apps[i].scenes.connectedCount <= 1 {
            return planTerminate(apps[i].id, byUser: true)
        }
        apps[i].scenes.sessions[k].shown = false
        if apps[i].scenes.focus == session {
            apps[i].scenes.focus = apps[i].scenes.sessions.last(where: \.shown)?.id
        }
        apps[i].scenes.target = session
        schedule(i, .closeScene, stage: 0)
        refreshFront(stage: 1)
    }

    /// Critical pressure first reclaims the background scenes of every scene app that runs and is not suspended
    /// (S40): each one's payload is asked for, then it is disconnected. Returns whether any app has one.
    mutating func planSceneReclaims() -> Bool {
        var any = false
        for i in apps.indices where usesScenes(i) && apps[i].state.isRunning && apps[i].state != .suspended {
            if apps[i].scenes.sessions.contains(where: { $0.state == .background }) {
                apps[i].scenes.target = nil
                schedule(i, .reclaimScene, stage: 0)
                any = true
            }
        }
        return any
    }
}
