import LifebusLifecycle

/// A scene app's works: which scene moves next and where to (its goal for the work under way), sending scene
/// callbacks with their context, the app's state derived from its scenes, and the session book's changes.
/// The moves themselves are `Device+Moves.swift`'s tables; this performs what they say.
extension Device {
    /// Whether app `i` is driven scene by scene (it adopts scenes; a profile without them refused it at connect).
    @inline(__always)
    func usesScenes(_ i: Int) -> Bool {
        apps[i].flags.adoptsScenes
    }

    /// Carries scene app `i`'s work one move further (`sceneMove(for:_:)` says which). Never inlined: the
    /// app-delegate path that calls `step` stays as small as it was.
    @inline(never)
    mutating func stepScene(_ i: Int, _ intent: Intent, _ situation: Situation) {
        handOverWithheldPayloads(i)
        prepareScenes(i, for: intent)
        let book = apps[i].scenes
        let focused = book.focus.flatMap(book.position(of:)).map { book.sessions[$0] }
        let sceneSituation = SceneSituation(
            app: situation, owesDiscards: !book.discarded.isEmpty, hasScenes: book.connectedCount > 0,
            sceneStep: nextSceneStep(of: i, for: intent),
            opensURLs: !(book.pendingOptions?.urlContexts.isEmpty ?? true) && focused?.state?.isForeground == true,
            switcherClose: configuration.profile.switcherClose, dismissing: book.dismissing,
            destroysAtTermination: destroys(i, on: .systemDisconnection))
        perform(Self.sceneMove(for: intent, sceneSituation), i)
    }

    /// Scene app `i` was sent `didFinishLaunching`: it launches in the background (S01), so its background time
    /// starts (until a scene comes to the foreground), and so does the scene launch's budget — unless it launches into
    /// the background (`launchInBackground`), where no scene comes to the front within it: the scene a later launch
    /// or wake brings up gets its callbacks' own budgets.
    mutating func sceneAppLaunched(_ i: Int) {
        enteredBackground(i)
        guard apps[i].work == .launchInBackground else {
            apps[i].scenes.launchDeadline = now + configuration.budgets.sceneLaunch
            return
        }
        chooseBackgroundScene(i)
    }

    /// Scene app `i` was sent `didFinishLaunching` for a background launch (its process connecting into the
    /// background or behind the lock, a silent push, a `BGTask`): with `connectsSceneAtBackgroundLaunch` it connects
    /// one scene into the background before the event's handler (S48–S52) — the session used most recently, or a new
    /// one — which is shown, so the user's next launch brings that scene to the front (S49).
    mutating func chooseBackgroundScene(_ i: Int) {
        guard configuration.connectsSceneAtBackgroundLaunch else { return }
        let k = showSessionUsedMostRecently(i)
        apps[i].scenes.connectingInBackground = apps[i].scenes.sessions[k].id
    }

    /// The scene moves a background work (`performTasks`, `deliverPushes`, `expireTasks`, `protectedDataUnlocked`)
    /// makes before its own callbacks: after a background launch, the sessions discarded while the app was not
    /// running announced and the chosen scene connected into the background; a payload withheld behind the lock
    /// handed over once the app runs with protected data available (`restoreInteractionState`,
    /// `handOverWithheldPayloads`: S50–S52). `true` when a callback was sent: its answer steps the work again.
    mutating func stepScenesInBackground(_ i: Int) -> Bool {
        guard usesScenes(i), let intent = apps[i].work else { return false }
        handOverWithheldPayloads(i)
        if apps[i].scenes.connectingInBackground != nil && !apps[i].scenes.discarded.isEmpty {
            announceDiscards(i)
            return true
        }
        if let k = apps[i].scenes.sessions.firstIndex(where: \.restorePending) {  // in session order ([inference])
            sendToScene(i, k, .restoreInteractionState, to: apps[i].scenes.sessions[k].state)
            return true
        }
        guard let step = nextSceneStep(of: i, for: intent) else { return false }
        sendToScene(i, step.session, step.callback, to: step.to)
        return true
    }

    /// Whether a payload withheld behind the lock rides on its scene's next callback sent while protected data is
    /// available: before ios15, which has no `restoreInteractionState` (the SDK puts it in the session's
    /// `stateRestorationActivity`). From ios15 `handOverWithheldPayloads` has it handed over by that callback.
    var handsWithheldPayloadOnNextCallback: Bool {
        !configuration.profile.restoresInteractionState
    }

    /// App `i` runs — is not suspended — while protected data is available: from ios15 each connected scene whose
    /// payload was withheld at its connect is to be handed it by `restoreInteractionState` (`restorePending`), in
    /// session order, before the work's own moves ([inference]). Keyed on the data, whatever the app last heard (a
    /// lock after the unlock that it slept through, `--protected-data-notifications missed`); an app owed the queued
    /// net change hears it first (`step` and `wakeInBackground` deliver it before any scene move). A suspended app
    /// is not running yet: the move that resumes it comes first (S50). Called at each step of the app's work.
    mutating func handOverWithheldPayloads(_ i: Int) {
        let state = apps[i].state
        guard configuration.profile.restoresInteractionState, protectedDataAvailable, state.isRunning,
            state != .suspended
        else { return }
        for k in apps[i].scenes.sessions.indices where apps[i].scenes.sessions[k].restorationWithheld {
            apps[i].scenes.sessions[k].restorationWithheld = false
            apps[i].scenes.sessions[k].restorePending = true
        }
    }

    /// Sends `didDiscardSceneSessions` with the sessions app `i` is owed news of.
    mutating func announceDiscards(_ i: Int) {
        let sessions = apps[i].scenes.discarded
        apps[i].scenes.discarded = []
        apps[i].scenes.dismissing = false
        send(i, .didDiscardSceneSessions, to: awake(i), context: SceneCallbackContext(sessions: sessions))
    }

    /// Sends `openURLContexts` to app `i`'s focused scene with the launch's URLs.
    mutating func openURLs(_ i: Int) {
        let options = apps[i].scenes.pendingOptions.take()
        guard let k = apps[i].scenes.focus.flatMap(apps[i].scenes.position(of:)) else {
            preconditionFailure("URLs opened with no focused scene")
        }
        sendToScene(i, k, .openURLContexts, to: apps[i].scenes.sessions[k].state, options: options)
    }

    /// The session book's changes a work makes before its next move: a foreground move with no window to show
    /// connects the session used most recently (or a new one); a closed scene's session is discarded once its scene
    /// is gone; a closed app's sessions once its scenes are where the profile puts them.
    private mutating func prepareScenes(_ i: Int, for intent: Intent) {
        switch intent {
        case .moveTo(let target) where target.isForeground && front == i && apps[i].state != .notRunning:
            guard !apps[i].scenes.sessions.contains(where: \.shown) else { return }
            _ = showSessionUsedMostRecently(i)
        case .moveTo where apps[i].scenes.dismissing:
            discardDismissed(i)
        case .terminate where destroys(i, on: .systemDisconnection) && nextSceneStep(of: i, for: intent) == nil:
            discardAll(i)  // S43
        case .closeScene:
            guard let session = apps[i].scenes.target, let k = apps[i].scenes.position(of: session),
                apps[i].scenes.sessions[k].scene == nil
            else { return }
            discard(i, k)
        case .closeApp:
            if nextSceneStep(of: i, for: intent) == nil {
                discardAll(i)
            }
        default:
            break
        }
    }

    /// Shows and focuses the session app `i` used most recently, or a new one (`configurationForConnecting` still
    /// to come); returns its position.
    private mutating func showSessionUsedMostRecently(_ i: Int) -> Int {
        guard let k = apps[i].scenes.sessions.indices.max(by: {
            apps[i].scenes.sessions[$0].lastUsed < apps[i].scenes.sessions[$1].lastUsed
        }) else {
            return apps[i].scenes.newSession()
        }
        apps[i].scenes.sessions[k].shown = true
        apps[i].scenes.focus = apps[i].scenes.sessions[k].id
        return k
    }

    /// The goal of session `k` of app `i` for `intent`; `nil` when the work leaves it alone.
    private func sceneGoal(_ i: Int, _ k: Int, for intent: Intent) -> SceneGoal? {
        let session = apps[i].scenes.sessions[k]
        let viaBackground = configuration.profile.switcherClose == .terminates
        switch intent {
        case .moveTo(let target):
            guard target.isForeground, session.shown else {
                if apps[i].scenes.dismissing && session.shown {
                    return .disconnected(saving: false, viaBackground: false)  // S42
                }
                return session.scene == nil ? nil : .state(.background)
            }
            let focused = target == .active && apps[i].scenes.focus == session.id
            return .state(focused ? .foregroundActive : .foregroundInactive)
        case .terminate:
            return .disconnected(saving: false, viaBackground: false)
        case .closeApp:
            return viaBackground ? .state(.background) : .disconnected(saving: false, viaBackground: false)
        case .closeScene:
            let closed = apps[i].scenes.target == session.id
            return closed ? .disconnected(saving: false, viaBackground: viaBackground) : nil
        case .reclaimScene:  // one scene, or (`nil`) every background scene
            let chosen = apps[i].scenes.target.map { $0 == session.id } ?? (session.state == .background)
            return chosen ? .disconnected(saving: true, viaBackground: false) : nil
        case .launchInBackground:
            return apps[i].scenes.connectingInBackground == session.id ? .connectedInBackground : nil
        case .performTasks, .expireTasks, .deliverPushes, .protectedDataUnlocked:  // `stepScenesInBackground`
            if apps[i].scenes.connectingInBackground == session.id {
                return .connectedInBackground
            }
            return session.state.map { .state($0) }  // where it is: only a pending restore moves it
        case .enterBackground, .memoryWarning, .jetsam, .protectedDataLocking:
            return nil
        }
    }

    /// The next scene step of app `i`'s work: of the scenes not at their goal, one falling (resigning, leaving the
    /// foreground, disconnecting) before any rising, so at most one scene is ever active; among equals, the seeded
    /// order (`sceneOrder`). `nil` when every scene is at its goal.
    func nextSceneStep(of i: Int, for intent: Intent) -> SceneStep? {
        var best: (step: SceneStep, falling: Bool, order: UInt64)?
        for k in apps[i].scenes.sessions.indices {
            guard let goal = sceneGoal(i, k, for: intent),
                let (callback, to) = Self.nextSceneStep(apps[i].scenes.sessions[k].phase, to: goal)
            else { continue }
            let falling = Self.isFalling(callback)
            let order = sceneOrder(i, apps[i].scenes.sessions[k].id)
            if let current = best, current.falling && !falling || (current.falling == falling && current.order < order)
            {
                continue
            }
            best = (SceneStep(session: k, callback: callback, to: to), falling, order)
        }
        return best?.step
    }

    /// Scene callbacks that take a scene away from activity or away altogether.
    private static func isFalling(_ callback: LifecycleCallback) -> Bool {
        switch callback {
        case .sceneWillResignActive, .sceneDidEnterBackground, .stateRestorationActivity, .sceneDidDisconnect: true
        default: false
        }
    }

    /// Where Apple documents no order across scenes moving alike: a key per app and session drawn from the
    /// configuration's `sceneOrderSeed` (SplitMix64), the lower moving first. The same seed gives the same order.
    func sceneOrder(_ i: Int, _ session: SceneSessionID) -> UInt64 {
        var generator = SplitMix64(
            seed: configuration.sceneOrderSeed ^ (UInt64(i) << 32) ^ UInt64(session.number))
        return generator.next()
    }

    /// Sends `callback` to the scene of session `k` of app `i`: the scene's state becomes `to` (a connecting scene
    /// gets its number; `nil` ends it), the app's the one its scenes give, and the notification of an aggregate
    /// edge rides with it.
    mutating func sendToScene(
        _ i: Int, _ k: Int, _ callback: LifecycleCallback, to: SceneState?, options: SceneConnectionOptions? = nil
    ) {
        var session = apps[i].scenes.sessions[k]
        if callback == .configurationForConnecting {
            apps[i].scenes.configuring = session.id
            send(i, callback, to: awake(i), context: SceneCallbackContext(sessions: [session.id]))
            return
        }
        if callback == .willConnectTo {
            apps[i].scenes.lastScene += 1
            session.scene = SceneID(apps[i].scenes.lastScene)
            session.restorePending = configuration.profile.restoresInteractionState && session.restoration != nil
                && protectedDataAvailable  // restoration data is protected (SCENES.md §6)
            session.restorationWithheld = session.restoration != nil && !protectedDataAvailable  // S50, S51
            session.saved = false
        }
        let carriesPayload = protectedDataAvailable
            && (callback == .willConnectTo || callback == .restoreInteractionState
                || session.restorationWithheld && handsWithheldPayloadOnNextCallback)
        if carriesPayload {
            session.restorationWithheld = false  // handed over now
        }
        let ref = session.ref!
        let from = session.state ?? .unattached
        let sceneTo = to ?? .unattached
        if callback == .restoreInteractionState {
            session.restorePending = false
        }
        if sceneTo == .foregroundActive {
            apps[i].scenes.uses += 1
            session.lastUsed = apps[i].scenes.uses
        }
        if to == nil {
            session.scene = nil
            session.restorePending = false
            session.restorationWithheld = false
            session.saved = false
        }
        session.state = to
        apps[i].scenes.sessions[k] = session
        let appFrom = apps[i].state
        let appTo = apps[i].scenes.foregroundState ?? .background
        let context = SceneCallbackContext(
            scene: ref, sceneState: sceneTo, posts: Self.edge(from: appFrom, to: appTo),
            options: callback == .willConnectTo ? takeConnectionOptions(i) : options,
            restoration: carriesPayload ? session.restoration : nil)
        if from != sceneTo {
            out.append(.sceneChanged(apps[i].id, ref, from: from, to: sceneTo, at: now))
        }
        send(i, callback, to: appTo, context: context, scene: SceneTransition(ref: ref, from: from, to: sceneTo))
        if appFrom.isForeground && !appTo.isForeground {
            enteredBackground(i)
        } else if !appFrom.isForeground && appTo.isForeground {
            leftBackground(i)
        }
        if sceneTo == .foregroundActive {
            apps[i].scenes.launchDeadline = nil
        }
        if to == .background && apps[i].scenes.connectingInBackground == session.id {
            apps[i].scenes.connectingInBackground = nil  // connected into the background
        }
    }

    /// App `i`'s state while it runs an app-delegate callback: a suspended app is woken into the background.
    private func awake(_ i: Int) -> LifecycleState {
        apps[i].state == .suspended ? .background : apps[i].state
    }

    /// The `UIApplication` notification posted when the app's aggregate state moves from `from` to `to` (SCENES.md
    /// §1b): `nil` when no edge is crossed.
    static func edge(from: LifecycleState, to: LifecycleState) -> ApplicationNotification? {
        if !from.isForeground && to.isForeground {
            return .willEnterForeground
        }
        if from != .active && to == .active {
            return .didBecomeActive
        }
        if from == .active && to != .active {
            return .willResignActive
        }
        if from.isForeground && !to.isForeground {
            return .didEnterBackground
        }
        return nil
    }

    /// A scene callback's budget: its own, or what is left of the scene launch's when less.
    func sceneBudget(_ i: Int, _ callback: LifecycleCallback) -> Duration {
        let own = configuration.budgets[callback]
        guard let deadline = apps[i].scenes.launchDeadline else { return own }
        let left = (deadline - now).clampedToZero
        return left < own ? left : own
    }

    /// Session `k` of app `i` is discarded: its scene (if any) disconnected silently, the app owed the news.
    mutating func discard(_ i: Int, _ k: Int) {
        disconnectSilently(i, k)
        let session = apps[i].scenes.sessions.remove(at: k)
        apps[i].scenes.discarded.append(session.id)
        if apps[i].scenes.configuring == session.id {
            apps[i].scenes.configuring = nil
        }
        if apps[i].scenes.focus == session.id {
            apps[i].scenes.focus = apps[i].scenes.sessions.last(where: \.shown)?.id
        }
        if apps[i].scenes.connectingInBackground == session.id {
            apps[i].scenes.connectingInBackground = nil
        }
    }

    /// Every session of app `i` is discarded (a switcher swipe of the app).
    mutating func discardAll(_ i: Int) {
        while !apps[i].scenes.sessions.isEmpty {
            discard(i, apps[i].scenes.sessions.count - 1)
        }
    }

    /// The scene of session `k` of app `i` ends without a callback (its process ended or is suspended): it
    /// becomes `unattached`, reported, and the session keeps its payload.
    mutating func disconnectSilently(_ i: Int, _ k: Int) {
        guard let ref = apps[i].scenes.sessions[k].ref, let from = apps[i].scenes.sessions[k].state else { return }
        apps[i].scenes.sessions[k].scene = nil
        apps[i].scenes.sessions[k].state = nil
        apps[i].scenes.sessions[k].restorePending = false
        apps[i].scenes.sessions[k].restorationWithheld = false
        apps[i].scenes.sessions[k].saved = false
        if from != .unattached {
            out.append(.sceneChanged(apps[i].id, ref, from: from, to: .unattached, at: now))
        }
    }

    /// App `i`'s process ended: its scenes end with it, no session is shown any more (a relaunch reconnects the
    /// one used most recently), what waited for the launch is dropped.
    mutating func scenesEnded(_ i: Int) {
        for k in apps[i].scenes.sessions.indices {
            disconnectSilently(i, k)
            apps[i].scenes.sessions[k].shown = false
        }
        apps[i].scenes.pendingOptions = nil
        apps[i].scenes.launchDeadline = nil
        apps[i].scenes.configuring = nil
        apps[i].scenes.connectingInBackground = nil
        destroySessionsAtProcessEnd(i)
    }

    /// The answer to a scene callback of app `i` changes the book: a configured session, a kept payload.
    mutating func sceneAnswered(_ i: Int, _ done: Outstanding, scene: SceneTransition?, restoration: String?) {
        if done.callback == .configurationForConnecting, let session = apps[i].scenes.configuring.take() {
            if let k = apps[i].scenes.position(of: session) {
                apps[i].scenes.sessions[k].configured = true
            }
            return
        }
        guard let session = scene?.ref.session, let k = apps[i].scenes.position(of: session) else { return }
        switch done.callback {
        case .stateRestorationActivity:
            apps[i].scenes.sessions[k].saved = true
            if let restoration {
                apps[i].scenes.sessions[k].restoration = restoration
            }
        default:
            break
        }
    }
}
