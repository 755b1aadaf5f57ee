import LifebusLifecycle

/// The moves of a work, as tables: what an app does next for its intent, given where it is (`move(for:_:)`), and
/// the next callback on the way from one state to another (`nextStep`). Pure: `step` performs what they say.
extension Device {
    /// What the device knows of an app when it chooses the app's next move.
    struct Situation: Equatable {
        var state: LifecycleState
        /// A process is connected (not exiting, not killed, not gone).
        var connected: Bool
        /// The profile and the app's flags let it run in the background.
        var canBackground: Bool
        /// The app owns the screen.
        var isFront: Bool
        /// A launch's URL or tapped notification waits for the app to reach the foreground (`Device.deliverOpened`).
        var owesOpened = false
        /// The profile requires scenes and the app does not adopt them (`ios27`): it cannot launch.
        var requiresScenes = false
    }

    /// One move of an app's work.
    enum Move: Equatable {
        /// Send `callback`; the app's state becomes `to`.
        case send(LifecycleCallback, to: LifecycleState)
        /// Go on as `then`, sending `callback` (the `didEnterBackground` that ends a background launch).
        case sendAs(Intent, LifecycleCallback, to: LifecycleState)
        /// Ask for the app's process and wait for it, counting the launch budget.
        case awaitLaunch
        /// Kill the suspended app without a callback (reason `system`, outcome `killed`).
        case killSuspended
        /// A background launch the app may not do: it launches as the front app instead.
        case launchInFront
        /// The work is done.
        case finish
        /// Kill the suspended app without notice (reason and outcome `jetsam`).
        case killJetsam
        /// The app does not adopt scenes where the profile requires them: its launch fails (`ios27`).
        case failSceneLaunch
        /// Send `callback` to the scene of the session at `session` (its position in the app's book); the scene's
        /// state becomes `to` (`nil`: no scene connected).
        case sendToScene(session: Int, LifecycleCallback, to: SceneState?)
        /// Send `didDiscardSceneSessions` with the sessions discarded and not yet announced.
        case announceDiscards
        /// Send `openURLContexts` to the focused scene with the launch's URLs.
        case openURLs
        /// Kill the suspended app for a switcher swipe (reason `user`), its sessions discarded.
        case closeSuspended
        /// Background execution's and data protection's next move, which reads the app's tasks
        /// (`Device.stepBackgroundWork`).
        case backgroundWork
        /// Hand the foreground app the launch's URL (`openURL`, an app that does not use scenes) or tapped
        /// notification (`didReceiveNotificationResponse`), one callback per move (`Device.deliverOpened`).
        case deliverOpened
    }

    /// The next move of a work `intent` for an app in `situation`.
    static func move(for intent: Intent, _ situation: Situation) -> Move {
        let state = situation.state
        if situation.requiresScenes && state == .notRunning && situation.connected {
            return .failSceneLaunch
        }
        switch intent {
        case .memoryWarning:
            return state.isForeground || state == .background ? .send(.didReceiveMemoryWarning, to: state) : .finish
        case .performTasks, .expireTasks, .deliverPushes, .protectedDataLocking, .protectedDataUnlocked:
            return .backgroundWork
        case .terminate:
            switch state {
            case .notRunning: return .finish
            case .suspended: return .killSuspended
            case .active, .inactive, .background: return .send(.willTerminate, to: .notRunning)
            }
        case .launchInBackground:
            switch (situation.canBackground, state) {
            case (false, _): return situation.isFront ? .launchInFront : .finish
            case (true, .notRunning) where situation.connected: return .send(.didFinishLaunching, to: .background)
            case (true, .notRunning): return situation.isFront ? .awaitLaunch : .finish
            case (true, .background): return .sendAs(.enterBackground, .didEnterBackground, to: .background)
            case (true, .inactive), (true, .active), (true, .suspended): return .finish
            }
        case .enterBackground, .closeScene, .reclaimScene:
            return .finish
        case .jetsam:
            return state == .suspended ? .killJetsam : .finish
        case .closeApp:
            return state == .notRunning ? .finish : .send(.willTerminate, to: .notRunning)
        case .moveTo(let target):
            if target.isForeground && !situation.isFront {
                return .finish  // the app ended while waiting for its stage and is no longer F: done without it
            }
            if state == .notRunning && !situation.connected {
                return target.isForeground ? .awaitLaunch : .finish
            }
            guard let (callback, next) = nextStep(from: state, to: target, canBackground: situation.canBackground)
            else {
                return situation.owesOpened && state.isForeground ? .deliverOpened : .finish  // B37, B38
            }
            return .send(callback, to: next)
        }
    }

    /// The next callback on the way from `state` to `target`, and the state it moves the app to.
    static func nextStep(
        from state: LifecycleState, to target: LifecycleState, canBackground: Bool
    ) -> (LifecycleCallback, LifecycleState)? {
        switch (target, state) {
        case (.active, .notRunning), (.inactive, .notRunning):
            (.didFinishLaunching, .inactive)
        case (.active, .inactive):
            (.didBecomeActive, .active)
        case (.active, .background), (.active, .suspended), (.inactive, .background), (.inactive, .suspended):
            (.willEnterForeground, .inactive)
        case (.inactive, .active), (.background, .active), (.suspended, .active):
            (.willResignActive, .inactive)
        case (.background, .inactive), (.suspended, .inactive):
            canBackground ? (.didEnterBackground, .background) : (.willTerminate, .notRunning)
        case (.active, .active), (.inactive, .inactive), (.background, .background), (.background, .suspended),
            (.suspended, .background), (.suspended, .suspended), (.background, .notRunning), (.suspended, .notRunning),
            (.notRunning, _):
            nil
        }
    }
}

/// A scene app's moves, as tables: its next move for its intent (`sceneMove(for:_:)`), and the next callback of
/// one scene on the way to its goal (`nextSceneStep`). Which scene moves next the device chooses
/// (`Device.nextSceneStep(of:for:)`: falling scenes first, then in the seeded order).
extension Device {
    /// Where a session's scene is.
    struct ScenePhase: Equatable {
        /// `nil`: no scene connected.
        var state: SceneState?
        var configured: Bool
        var restorePending: Bool
        var saved: Bool
    }

    /// Where a session's scene must go for the work under way.
    enum SceneGoal: Equatable {
        case state(SceneState)
        /// Disconnected; `saving`: ask for the restoration payload first (a reclaim); `viaBackground`: a foreground
        /// scene enters the background first (`SwitcherClose.terminates`).
        case disconnected(saving: Bool, viaBackground: Bool)
        /// Connected into the background by a background launch (`DeviceConfiguration
        /// .connectsSceneAtBackgroundLaunch`): connected as a launch connects one, then `sceneDidEnterBackground`
        /// ([inference]: "a system-requested scene typically moves to the background so that it can process an
        /// event", "Managing your app's life cycle"; Apple names no callback for the move, the one that says it is
        /// `sceneDidEnterBackground`). A scene already connected stays where it is.
        case connectedInBackground
    }

    /// One scene's next step, as the device chose it.
    struct SceneStep: Equatable {
        var session: Int
        var callback: LifecycleCallback
        var to: SceneState?
    }

    /// What the device knows of a scene app when it chooses the app's next move.
    struct SceneSituation: Equatable {
        var app: Situation
        /// Sessions discarded and not yet announced.
        var owesDiscards: Bool
        /// A scene is connected.
        var hasScenes: Bool
        /// The next scene's step toward its goal; `nil` when every scene is at its goal.
        var sceneStep: SceneStep?
        /// The launch's URLs wait for the focused scene, which is connected and in the foreground.
        var opensURLs: Bool
        var switcherClose: SwitcherClose
        /// A `home` is destroying the shown scenes (`userInitiatedDismissal`): their sessions are announced at once.
        var dismissing: Bool
        /// The app declared `systemDisconnection`: a termination announces its discarded sessions before
        /// `willTerminate`.
        var destroysAtTermination: Bool
    }

    /// The next move of a scene app's work `intent` in `situation` (rows S01–S52 of `Protocol/lifecycle.md`).
    static func sceneMove(for intent: Intent, _ situation: SceneSituation) -> Move {
        let app = situation.app
        let state = app.state
        switch intent {
        case .memoryWarning, .enterBackground, .jetsam, .performTasks, .expireTasks, .deliverPushes,
            .protectedDataLocking, .protectedDataUnlocked:
            return move(for: intent, app)
        case .launchInBackground:
            switch (app.canBackground, state) {
            case (true, .notRunning) where app.connected: return .send(.didFinishLaunching, to: .background)
            case (true, .background):
                if situation.owesDiscards {
                    return .announceDiscards
                }
                if let step = situation.sceneStep {  // the scene a background launch connects (S48)
                    return .sendToScene(session: step.session, step.callback, to: step.to)
                }
                return .finish
            default: return move(for: intent, app)
            }
        case .moveTo(let target):
            if target.isForeground && !app.isFront {
                return .finish
            }
            if state == .notRunning {
                guard app.connected else { return target.isForeground ? .awaitLaunch : .finish }
                return .send(.didFinishLaunching, to: .background)
            }
            if situation.owesDiscards && !situation.hasScenes && state == .background {
                return .announceDiscards
            }
            if let step = situation.sceneStep {
                return .sendToScene(session: step.session, step.callback, to: step.to)
            }
            if situation.dismissing && situation.owesDiscards {
                return .announceDiscards  // S42
            }
            if situation.opensURLs {
                return .openURLs
            }
            return app.owesOpened && state.isForeground ? .deliverOpened : .finish  // B38
        case .terminate:
            switch state {
            case .notRunning: return .finish
            case .suspended: return .killSuspended
            case .active, .inactive, .background:
                guard let step = situation.sceneStep else {
                    return situation.owesDiscards && situation.destroysAtTermination
                        ? .announceDiscards : .send(.willTerminate, to: .notRunning)  // S43
                }
                return .sendToScene(session: step.session, step.callback, to: step.to)
            }
        case .closeApp:
            switch state {
            case .notRunning: return .finish
            case .suspended: return .closeSuspended
            case .active, .inactive, .background:
                if let step = situation.sceneStep {
                    return .sendToScene(session: step.session, step.callback, to: step.to)
                }
                if situation.owesDiscards && situation.switcherClose == .disconnectsAndDiscards {
                    return .announceDiscards
                }
                return .send(.willTerminate, to: .notRunning)
            }
        case .closeScene, .reclaimScene:
            guard state.isRunning else { return .finish }
            if let step = situation.sceneStep {
                return .sendToScene(session: step.session, step.callback, to: step.to)
            }
            return situation.owesDiscards && state != .suspended ? .announceDiscards : .finish
        }
    }

    /// The next callback of a scene on the way to `goal`, and the scene's state once it is sent (`nil`: no scene
    /// connected). `nil` when the scene is at its goal.
    static func nextSceneStep(_ phase: ScenePhase, to goal: SceneGoal) -> (LifecycleCallback, SceneState?)? {
        switch goal {
        case .connectedInBackground:
            guard let state = phase.state else {
                return phase.configured ? (.willConnectTo, .unattached) : (.configurationForConnecting, nil)
            }
            if phase.restorePending {
                return (.restoreInteractionState, state)
            }
            return state == .unattached ? (.sceneDidEnterBackground, .background) : nil
        case .state(let target):
            guard let state = phase.state else {
                guard target.isForeground else { return nil }  // a background goal connects no scene
                return phase.configured ? (.willConnectTo, .unattached) : (.configurationForConnecting, nil)
            }
            if phase.restorePending {  // at the connect, or a payload withheld behind the lock (S50, S51)
                return (.restoreInteractionState, state)
            }
            switch (state, target) {
            case (.unattached, .foregroundActive), (.unattached, .foregroundInactive),
                (.background, .foregroundActive), (.background, .foregroundInactive):
                return (.sceneWillEnterForeground, .foregroundInactive)
            case (.foregroundInactive, .foregroundActive):
                return (.sceneDidBecomeActive, .foregroundActive)
            case (.foregroundActive, .foregroundInactive), (.foregroundActive, .background):
                return (.sceneWillResignActive, .foregroundInactive)
            case (.foregroundInactive, .background), (.unattached, .background):
                return (.sceneDidEnterBackground, .background)
            case (.foregroundActive, .foregroundActive), (.foregroundInactive, .foregroundInactive),
                (.background, .background), (.unattached, .unattached), (_, .unattached):
                return nil
            }
        case .disconnected(let saving, let viaBackground):
            guard let state = phase.state else { return nil }
            switch state {
            case .foregroundActive:
                return (.sceneWillResignActive, .foregroundInactive)
            case .foregroundInactive where viaBackground:
                return (.sceneDidEnterBackground, .background)
            case .foregroundInactive, .background, .unattached:
                return saving && !phase.saved ? (.stateRestorationActivity, state) : (.sceneDidDisconnect, nil)
            }
        }
    }
}
