import LifebusLifecycle

/// The transition table: how each controller event changes the device and which apps it moves.
/// Each case names its rows in `Protocol/lifecycle.md`. Planning runs when the event reaches the head
/// of the queue, so it sees every app idle; a refused event leaves the device untouched.
extension Device {
    mutating func plan(_ event: ControllerEvent) {
        switch event {
        case .call(let action):
            planCall(action)
        case .sms(let action):
            planAlert(.sms, action)
        case .calendar(let action):
            planAlert(.calendar, action)
        case .sleep:  // R20–R22, B20
            guard !locked else { return }
            locked = true
            refreshFront(stage: 0)
            planProtectedDataLock()
            planConditionsChanged()  // idle: waiting processing tasks may run (B15)
        case .wake:  // R23–R25, B22
            guard locked else { return }
            locked = false
            refreshFront(stage: 0)
            planProtectedDataUnlock(tell: true)
            planProcessingExpiry()
        case .home:  // R26–R28
            guard !locked, let f = front else { return }
            front = nil
            planDismissal(f)  // S42
            schedule(f, .moveTo(.background), stage: 0)
            planProcessingExpiry()
        case .launch(let app, let options):
            planLaunch(app, requireRunning: false, options: options)
            planProcessingExpiry()
        case .activate(let app):
            planLaunch(app, requireRunning: true)
            planProcessingExpiry()
        case .memoryWarning(let level):
            planMemoryWarning(level)
        case .terminate(let app, let byUser):
            planTerminate(app, byUser: byUser)
        case .scene(let event):
            planScene(event)
        case .backgroundTask(let app, let identifier, let action):
            planBackgroundTask(app, identifier: identifier, action: action)
        case .push(let app, let notification):
            planPush(app, notification)
        case .power(let power):
            planPower(power)
        case .network(let network):
            planNetwork(network)
        case .reset:
            planReset()
        }
    }

    /// A fresh device without restarting: the screen, the call and memory pressure are cleared; an app that has no
    /// process (and is not being launched) is forgotten — its record stays as a tombstone no index points to, so
    /// indices held elsewhere stay valid; the front app is moved to where a fresh device puts it.
    private mutating func planReset() {
        locked = false
        conditions = configuration.conditions  // the power and network the device started with
        alertOnScreen = nil
        phoneCall = .idle
        lastCriticalWarning = nil
        for i in apps.indices {
            apps[i].forceQuit = false  // a restarted device launches force-quit apps again (B42, B64)
        }
        for i in apps.indices
        where index[apps[i].id] == i && apps[i].process == .none && apps[i].launch?.timer == nil {
            dropScheduledTasks(i)
            index[apps[i].id] = nil
            if front == i { front = nil }
        }
        refreshFront(stage: 0)
        planProtectedDataUnlock(tell: false)
    }

    /// The state the front app should be in: behind the lock as the profile says, `inactive` under an
    /// alert, else `active`.
    @inline(__always)  // as a call, it would be handed a copy of the whole device from a mutating caller
    func frontTarget(_ i: Int) -> LifecycleState {
        if locked {
            return configuration.profile.lockSendsToBackground && canBackground(i) ? .background : .inactive
        }
        return alertOnScreen == nil && !phoneCall.coversFront ? .active : .inactive
    }

    mutating func refreshFront(stage: Int) {
        if let f = front {
            schedule(f, .moveTo(frontTarget(f)), stage: stage)
        }
    }

    /// Makes app `i` the front app: the previous one leaves first (stage 0), then `i` comes (stage 1).
    mutating func bringToFront(_ i: Int) {
        if let f = front, f != i {
            schedule(f, .moveTo(.background), stage: 0)
        }
        front = i
        let target = frontTarget(i)
        let launchesBehindLock = target == .background && apps[i].state == .notRunning
        schedule(i, launchesBehindLock ? .launchInBackground : .moveTo(target), stage: 1)
    }

    private mutating func planCall(_ action: CallAction) {
        switch action {
        case .ring:  // R01, R02, R30, R31, C01
            guard phoneCall == .idle else {
                return refuse(.callAlreadyActive)
            }
            if ringsAsBanner() {
                phoneCall = .ringingAsBanner  // the screen stays the front app's
                return
            }
            alertOnScreen = nil  // the ringing call takes the screen
            phoneCall = .ringing
            refreshFront(stage: 0)
        case .answer:  // R03, R04, C02
            switch phoneCall {
            case .ringing:
                phoneCall = .inProgress(returnTo: front)
                if let f = front {
                    front = nil
                    schedule(f, .moveTo(.background), stage: 0)
                }
            case .ringingAsBanner:
                phoneCall = .answeredFromBanner  // the full-screen call UI over the front app
                refreshFront(stage: 0)
            case .idle, .inProgress, .answeredFromBanner:
                refuse(.noRingingCall)
            }
        case .decline:  // R05, C03
            guard phoneCall.isRinging else {
                return refuse(.noRingingCall)
            }
            phoneCall = .idle
            refreshFront(stage: 0)
        case .end:  // R06–R08, C03, C04
            switch phoneCall {
            case .idle:
                refuse(.noCall)
            case .ringing, .ringingAsBanner, .answeredFromBanner:
                phoneCall = .idle
                refreshFront(stage: 0)
            case .inProgress(let previous):
                phoneCall = .idle
                if front == nil, let previous {
                    bringToFront(previous)
                }
            }
        }
    }

    private mutating func planAlert(_ kind: AlertKind, _ action: AlertAction) {
        switch action {
        case .show:  // R10, R11, R12
            guard !locked, alertOnScreen == nil, !phoneCall.isRinging else { return }
            alertOnScreen = kind
            refreshFront(stage: 0)
        case .banner:  // R13
            return
        case .dismiss:  // R14
            guard alertOnScreen == kind else {
                return refuse(.noSuchAlert)
            }
            alertOnScreen = nil
            refreshFront(stage: 0)
        case .open:  // R15
            guard alertOnScreen == kind else {
                return refuse(.noSuchAlert)
            }
            alertOnScreen = nil
            if let f = front {
                front = nil
                schedule(f, .moveTo(.background), stage: 0)
            }
        }
    }

    /// `options`: a cold start's URL or notification, for a scene app's connecting scene (S03) or its focused one
    /// (S04).
    mutating func planLaunch(
        _ app: AppID, requireRunning: Bool, options: SceneConnectionOptions? = nil
    ) {  // R40–R46
        guard !locked else {
            return refuse(.deviceLocked, app: app)
        }
        if requireRunning {
            guard let i = index[app] else {
                return refuse(.unknownApp, app: app)
            }
            guard apps[i].state.isRunning else {
                return refuse(.appNotRunning, app: app)
            }
        }
        let i = record(for: app)
        if let options, !options.isEmpty {
            apps[i].scenes.pendingOptions = options
        }
        if front == i {
            refreshFront(stage: 0)
        } else {
            bringToFront(i)
        }
        userLaunched(i)  // B43, B45
    }

    private mutating func planMemoryWarning(_ level: MemoryWarningLevel) {  // R50–R54, S40
        var warnStage = 0
        var terminated: Set<Int> = []
        if level == .critical {
            // Scenes first: with background scenes to reclaim (stage 0), the rest comes a stage later.
            let stage = planSceneReclaims() ? 1 : 0
            let victims = apps.indices.filter { apps[$0].state == .suspended }
                .sorted { (apps[$1].footprint, $0) < (apps[$0].footprint, $1) }  // largest first, then first connected
            for victim in victims {
                if stage == 0 {
                    end(victim, kill: .jetsam, outcome: .jetsam, cause: activity.cause)
                } else {
                    schedule(victim, .jetsam, stage: stage)
                }
            }
            let window = configuration.budgets.pressureWindow
            let pressureStays = lastCriticalWarning.map { now - $0 <= window } ?? false
            lastCriticalWarning = now
            warnStage = stage
            if pressureStays {
                for i in apps.indices where apps[i].state == .background && i != front {
                    schedule(i, .terminate, stage: stage)
                    terminated.insert(i)
                }
                warnStage = stage + 1
            }
        }
        for i in apps.indices where !terminated.contains(i) {
            let state = apps[i].state
            if state.isForeground || state == .background {
                schedule(i, .memoryWarning, stage: warnStage)
            }
        }
    }

    mutating func planTerminate(_ app: AppID, byUser: Bool) {  // R60–R64
        guard let i = index[app] else {
            return refuse(.unknownApp, app: app)
        }
        guard apps[i].state.isRunning else {
            return refuse(.appNotRunning, app: app)
        }
        if front == i {
            front = nil
        }
        if phoneCall == .inProgress(returnTo: i) {
            phoneCall = .inProgress(returnTo: nil)
        }
        if byUser {
            apps[i].forceQuit = true  // B42, B64: a silent push or a refresh task no longer launches it
        }
        if byUser && usesScenes(i) {
            schedule(i, .closeApp, stage: 0)  // S24
        } else if byUser {
            end(i, kill: .user, outcome: .killed, cause: activity.cause)
        } else {
            schedule(i, .terminate, stage: 0)
        }
    }

    /// An app connected on its own: connecting is launching (R70–R73).
    mutating func planConnection(_ i: Int) {
        guard apps[i].process == .connected, apps[i].state == .notRunning else {
            return  // launched meanwhile by an event, or already gone
        }
        if apps[i].flags.launchInBackground && canBackground(i) {
            schedule(i, .launchInBackground, stage: 0)
        } else {
            bringToFront(i)
            userLaunched(i)
        }
    }
}
