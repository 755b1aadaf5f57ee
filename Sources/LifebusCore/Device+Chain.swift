import LifebusLifecycle

/// Running chains: one controller event (or connection) at a time, stage by stage; within a stage every
/// app walks its own callbacks, one outstanding callback per app.
extension Device {
    /// Runs the device until it must wait for an answer, a connection or a timer.
    mutating func advance() {
        while true {
            guard let running = activity.chain?.running else {
                guard let entry = queue.popFirst() else {
                    return
                }
                switch entry {
                case .event(let id, let event, let fired):
                    activity = .running(newChain(cause: id, fired: fired))
                    plan(event)
                case .connected(let i):
                    activity = .running(newChain(cause: nil, fired: nil))
                    planConnection(i)
                case .tasks(let i):
                    activity = .running(newChain(cause: nil, fired: nil))
                    planTasks(i)
                }
                continue
            }
            if running > 0 {
                return
            }
            if let stage = activity.nextStage {
                while let work = activity.startNextWork(of: stage) {
                    apps[work.app].work = work.intent
                    step(work.app)
                }
            } else {
                finishChain()
            }
        }
    }

    /// The stage after every work the running chain has planned: where work that follows an event's own moves goes;
    /// `nil` with no chain.
    var stageAfterPlannedWorks: Int? {
        activity.chain.map { ($0.works.last?.stage ?? -1) + 1 }
    }

    /// Adds `intent` for app `i` to the chain being planned.
    mutating func schedule(_ i: Int, _ intent: Intent, stage: Int) {
        activity.modifyChain { $0.works.append(Work(app: i, intent: intent, stage: stage)) }
    }

    /// Answers the event being planned with a rejection; the device is left as it was.
    mutating func refuse(_ reason: RejectionReason, app: AppID? = nil) {
        let id = activity.cause
        activity = .idle
        if let id {
            unanswered.remove(id)
        }
        out.append(.reject(Rejection(event: id, app: app, reason: reason)))
    }

    /// A chain for `cause`, its works filling the room the last finished chain left.
    private mutating func newChain(cause: EventID?, fired: Instant?) -> Chain {
        var chain = Chain(cause: cause, fired: fired)
        swap(&chain.works, &spareWorks)
        return chain
    }

    private mutating func finishChain() {
        guard var finished = activity.takeChain() else {
            return
        }
        finished.works.removeAll(keepingCapacity: true)
        swap(&finished.works, &spareWorks)
        guard let id = finished.cause else {
            return
        }
        unanswered.remove(id)
        if let failure = finished.failure {
            out.append(.reject(failure))
        } else {
            out.append(.completeEvent(id))
        }
    }

    /// Carries app `i`'s work one move further (`move(for:_:)` says which). Never inlined: inlined into `answer`
    /// and `advance` with its moves, it made the per-answer path ~100 instructions longer.
    @inline(never)
    mutating func step(_ i: Int) {
        guard let intent = apps[i].work else {
            return
        }
        if apps[i].resumedFromSuspension && deliverQueuedProtectedData(i) {
            return  // the work steps again on its answer
        }
        let situation = Situation(
            state: apps[i].state, connected: apps[i].process == .connected, canBackground: canBackground(i),
            isFront: front == i, owesOpened: apps[i].scenes.pendingOptions != nil,
            requiresScenes: apps[i].state == .notRunning && configuration.profile.sceneSupport == .required
                && !apps[i].flags.adoptsScenes)
        if usesScenes(i) && !intent.leavesScenes {
            stepScene(i, intent, situation)
        } else {
            perform(Self.move(for: intent, situation), i)
        }
    }

    /// Performs app `i`'s next move. Inlined into `step` (never inlined itself): the app-delegate path's one switch,
    /// as before scenes.
    @inline(__always)
    mutating func perform(_ move: Move, _ i: Int) {
        switch move {
        case .send(let callback, let next):
            send(i, callback, to: next)
            if callback == .didFinishLaunching && usesScenes(i) {
                sceneAppLaunched(i)
            }
        case .sendAs(let then, let callback, let next):
            apps[i].work = then
            send(i, callback, to: next)
        case .awaitLaunch:
            awaitLaunch(i)
        case .killSuspended:
            end(i, kill: .system, outcome: .killed, cause: activity.cause)
        case .launchInFront:
            apps[i].work = .moveTo(frontTarget(i))
            step(i)
        case .finish:
            finishWork(i)
        case .killJetsam:
            end(i, kill: .jetsam, outcome: .jetsam, cause: activity.cause)
        case .failSceneLaunch:
            failSceneLaunch(i)
        case .sendToScene(let k, let callback, let to):
            sendToScene(i, k, callback, to: to)
        case .announceDiscards:
            announceDiscards(i)
        case .openURLs:
            openURLs(i)
        case .closeSuspended:
            discardAll(i)
            end(i, kill: .user, outcome: .killed, cause: activity.cause)
        case .backgroundWork:
            stepBackgroundWork(i)
        case .deliverOpened:
            deliverOpened(i)
        }
    }

    /// Whether app `i` may run in the background (else leaving the front terminates it).
    func canBackground(_ i: Int) -> Bool {
        configuration.profile.hasMultitasking && !apps[i].flags.exitsOnSuspend
    }

    /// Sends `callback` to app `i`, whose state becomes `next` at once, and arms its watchdog. A scene app's
    /// callback carries its `context` and journals its `scene` move; a callback with a context gets what is left of a
    /// scene launch when that is less than its budget, unless `ownBudget` (background execution's callbacks).
    mutating func send(
        _ i: Int, _ callback: LifecycleCallback, to next: LifecycleState, context: SceneCallbackContext? = nil,
        scene: SceneTransition? = nil, ownBudget: Bool = false
    ) {
        var budget = context == nil || ownBudget ? configuration.budgets[callback] : sceneBudget(i, callback)
        var context = context
        if callback == .didFinishLaunching {
            if let launch = apps[i].launch {
                budget = (launch.deadline - now).clampedToZero
                apps[i].launch = nil
            }
            let reason = apps[i].launchReason.take()
            let options = usesScenes(i) ? nil : takeLaunchOptions(i)
            if reason != nil || options != nil {
                context = SceneCallbackContext(launchReason: reason, launchOptions: options)
            }
        }
        lastCallbackID += 1
        let id = CallbackID(lastCallbackID)
        let timer = armTimer(.watchdog(i), at: now + budget)
        apps[i].outstanding = Outstanding(
            id: id, callback: callback, from: apps[i].state, to: next, sent: now, budget: budget, timer: timer,
            late: false
        )
        if scene != nil {
            apps[i].scenes.outstandingScene = scene
        }
        setState(i, next)
        out.append(.sendCallback(
            apps[i].id, id, callback, to: next, budget: budget, cause: activity.cause, scene: context))
        switch callback {
        case .didEnterBackground:
            apps[i].owesBackgroundEntry = false
            enteredBackground(i)
        case .willEnterForeground:
            leftBackground(i)
        case .willTerminate:
            leftBackground(i)
            apps[i].tasks = []
            if !apps[i].scheduledTasks.isEmpty || !apps[i].registeredTasks.isEmpty {
                scheduledTasksEnded(i)  // its process is ending: its running BGTasks are cancelled (B14)
            }
        default:
            break
        }
    }

    /// Handles an app's answer to its outstanding callback.
    mutating func answer(
        _ app: AppID, _ id: CallbackID, handlerDuration: Duration?, handlerFailed: Bool, restoration: String?
    ) {
        guard let i = index[app] else {
            out.append(.reject(Rejection(app: app, reason: .unknownApp)))
            return
        }
        guard let done = apps[i].outstanding, done.id == id else {
            out.append(.reject(Rejection(app: app, reason: .unexpectedAnswer)))
            return
        }
        cancelTimer(done.timer)
        apps[i].outstanding = nil
        let scene = usesScenes(i) ? apps[i].scenes.outstandingScene.take() : nil
        record(Transition(
            app: app, callback: done.callback, cause: activity.cause, from: done.from, to: done.to,
            fired: activity.fired, sent: done.sent, answered: now, handlerDuration: handlerDuration,
            budget: done.budget, outcome: done.late ? .late : .ok, handlerFailed: handlerFailed, pid: apps[i].pid ?? 0,
            scene: scene
        ))
        if scene != nil || done.callback == .configurationForConnecting {
            sceneAnswered(i, done, scene: scene, restoration: restoration)
        }
        if done.callback == .willTerminate {
            apps[i].process = .exiting(grace: armTimer(.exitGrace(i), at: now + configuration.budgets.exitGrace))
        }
        switch apps[i].work {
        case .moveTo, .launchInBackground, .closeApp, .closeScene, .reclaimScene:
            step(i)
        case .terminate:
            if done.callback == .willTerminate { finishWork(i) } else { step(i) }
        case .memoryWarning, .enterBackground, .jetsam, .protectedDataLocking:
            finishWork(i)
        case .protectedDataUnlocked:
            if !stepScenesInBackground(i) { finishWork(i) }  // then each payload withheld behind the lock (S51)
        case .performTasks, .expireTasks:
            step(i)
        case .deliverPushes:
            if done.callback == .didReceiveRemoteNotification { pushAnswered(i, late: done.late) }
            if done.callback == .willPresentNotification { presentationAnswered(i) }
            step(i)
        case nil:
            preconditionFailure("a callback was outstanding outside any chain")
        }
    }

    /// App `i` has done its part of the chain.
    mutating func finishWork(_ i: Int) {
        precondition(apps[i].work != nil, "finishing work that is not running")
        apps[i].work = nil
        apps[i].owesBackgroundEntry = false  // owed only within the work that woke the app
        if apps[i].scenes.pendingOptions != nil {
            apps[i].scenes.pendingOptions = nil  // a launch's options no scene took
        }
        activity.modifyChain { $0.running -= 1 }
        settle(i)
    }

    /// Journals `transition`.
    mutating func record(_ transition: Transition) {
        out.append(.record(transition))
    }

    /// Moves app `i` to `state`, telling the caller when it changes.
    mutating func setState(_ i: Int, _ state: LifecycleState) {
        let from = apps[i].state
        guard from != state else {
            return
        }
        apps[i].state = state
        switch (from, state) {
        case (_, .suspended), (_, .notRunning):
            apps[i].resumedFromSuspension = false
        case (.notRunning, _):
            apps[i].heardProtectedDataAvailable = !locked  // a launch reads the device as it is
        case (.suspended, _):
            apps[i].resumedFromSuspension = true
        default:
            break
        }
        out.append(.stateChanged(apps[i].id, from: from, to: state, at: now))
    }

    mutating func armTimer(_ purpose: TimerPurpose, at deadline: Instant) -> TimerID {
        timers.arm(purpose, at: deadline)
    }

    mutating func cancelTimer(_ id: TimerID?) {
        guard let id else {
            return
        }
        timers.cancel(id)
    }
}
