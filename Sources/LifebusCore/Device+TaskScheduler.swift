import LifebusLifecycle

/// `BGTaskScheduler` (`Protocol/lifecycle.md`, "Background execution and data protection"): an app registers its
/// permitted identifiers while it launches and submits requests; a pending task falls due at its earliest begin
/// date (on the device's clock) or when the controller runs it; a due task's app is launched into the background if
/// it is not running (no scene, no `willEnterForeground`), resumed if suspended, and its launch handler called; a
/// running task ends when the app completes it, or expires — its expiration handler at the end of its budget
/// (`appRefresh`), when the user comes back (`processing`) or cancels it (`continuedProcessing`) — and the app is
/// killed (`backgroundTaskExpired`) when it is not completed in time. An app the user force-quit is launched only for
/// the task kinds `DeviceConfiguration.taskKindsAfterForceQuit` names (B64–B66).
extension Device {
    mutating func registerTask(_ app: AppID, _ identifier: String) {
        guard let i = index[app] else {
            return rejectTask(app, .unknownApp)
        }
        guard configuration.profile.hasBackgroundTasks else {
            return rejectTask(app, .backgroundTasksUnavailable)
        }
        guard apps[i].process == .connected else {
            return rejectTask(app, .appNotRunning)
        }
        guard apps[i].state == .notRunning || apps[i].outstanding?.callback == .didFinishLaunching else {
            return rejectTask(app, .registrationClosed)  // B02
        }
        guard apps[i].flags.permittedTaskIdentifiers.contains(identifier) else {
            return rejectTask(app, .taskNotPermitted)  // B03
        }
        guard !apps[i].registeredTasks.contains(identifier) else {
            return rejectTask(app, .duplicateTask)
        }
        apps[i].registeredTasks.append(identifier)
    }

    mutating func submitTask(_ app: AppID, _ request: BackgroundTaskRequest) {
        guard let i = index[app] else {
            return rejectTask(app, .unknownApp)
        }
        let profile = configuration.profile
        guard profile.hasBackgroundTasks, request.kind != .continuedProcessing || profile.hasContinuedProcessing else {
            return rejectTask(app, .backgroundTasksUnavailable)
        }
        guard apps[i].state != .suspended else {
            return rejectTask(app, .appSuspended)
        }
        guard apps[i].process == .connected, apps[i].state.isRunning else {
            return rejectTask(app, .appNotRunning)
        }
        guard apps[i].registeredTasks.contains(request.identifier) else {
            return rejectTask(app, .taskNotPermitted)
        }
        if request.kind == .continuedProcessing, front != i || !apps[i].state.isForeground {
            return rejectTask(app, .taskRequiresForeground)  // B12
        }
        if let limit = Self.pendingRequestLimit(request.kind) {
            let others = apps[i].scheduledTasks.count {
                $0.request.kind == request.kind && $0.request.identifier != request.identifier
                    && ($0.phase == .pending || $0.phase == .due)
            }
            guard others < limit else {
                return rejectTask(app, .tooManyPendingTaskRequests)  // B46, B47
            }
        }
        // A new submission replaces the pending one of its identifier ("Submitting a task request for an unexecuted
        // task that's already in the queue replaces the previous task request", `BGTaskScheduler.submit`): it never
        // counts twice. A running one runs on.
        if let k = apps[i].scheduledTasks.firstIndex(where: {
            $0.request.identifier == request.identifier && ($0.phase == .pending || $0.phase == .due)
        }) {
            cancelTimer(apps[i].scheduledTasks[k].due)
            apps[i].scheduledTasks.remove(at: k)
        }
        var task = ScheduledTask(request: request)
        if request.kind == .continuedProcessing {
            task.phase = .due  // it starts at once, from the foreground
            queue.append(.tasks(i))
        } else if let begin = request.earliestBegin {
            task.due = armTimer(.scheduledTaskDue(i), at: begin < now ? now : begin)
        }
        apps[i].scheduledTasks.append(task)
        recordTask(i, request, .submitted)
    }

    /// How many requests of `kind` an app may have scheduled at once (B46, B47): Apple's `BGTaskScheduler.submit`,
    /// "a total of 1 refresh task and 10 processing tasks scheduled at any time". Scheduled is pending — submitted,
    /// not yet launched; a running task is no longer scheduled ([inference]: the usual handler submits the next
    /// refresh while it runs). Continued processing has no documented pending limit (`nil`): Apple documents only
    /// a limit on concurrent tasks, met by the request's submission strategy, which the device does not model.
    static func pendingRequestLimit(_ kind: BackgroundTaskKind) -> Int? {
        switch kind {
        case .appRefresh: 1
        case .processing: 10
        case .continuedProcessing: nil
        }
    }

    mutating func completeTask(_ app: AppID, _ identifier: String, success: Bool) {
        guard let i = index[app] else {
            return rejectTask(app, .unknownApp)
        }
        guard let k = apps[i].scheduledTasks.firstIndex(where: {
            $0.request.identifier == identifier && $0.phase != .pending && $0.phase != .due
        }) else {
            return rejectTask(app, .unknownTask)
        }
        let task = apps[i].scheduledTasks.remove(at: k)
        cancelTimer(task.warning)
        cancelTimer(task.expiry)
        if task.request.kind == .processing {
            runningProcessingTasks -= 1
        }
        recordTask(i, task.request, .completed, success: success)
        settle(i)
    }

    /// `fire bgtask APP ID` (`run`: B04, B05) and `fire bgtask APP ID --cancel` (B13).
    mutating func planBackgroundTask(_ app: AppID, identifier: String, action: BackgroundTaskAction) {
        guard configuration.profile.hasBackgroundTasks else {
            return refuse(.backgroundTasksUnavailable, app: app)
        }
        guard let i = index[app] else {
            return refuse(.unknownApp, app: app)
        }
        switch action {
        case .run:
            guard let k = apps[i].scheduledTasks.firstIndex(where: {
                $0.request.identifier == identifier && ($0.phase == .pending || $0.phase == .due)
            }) else {
                return refuse(.unknownTask, app: app)
            }
            cancelTimer(apps[i].scheduledTasks[k].due)
            apps[i].scheduledTasks[k].due = nil
            apps[i].scheduledTasks[k].waiting = false  // on demand, whatever the conditions (B19)
            apps[i].scheduledTasks[k].phase = .due
            schedule(i, .performTasks, stage: 0)
        case .cancel:
            guard let k = apps[i].scheduledTasks.firstIndex(where: {
                $0.request.identifier == identifier && $0.request.kind == .continuedProcessing && $0.phase == .running
            }) else {
                return refuse(.unknownTask, app: app)
            }
            apps[i].scheduledTasks[k].phase = .expirationDue
            schedule(i, .expireTasks, stage: 0)
        }
    }

    /// The chain of app `i`'s tasks that want attention outside any event (`QueuedWork.tasks`).
    mutating func planTasks(_ i: Int) {
        let expiring = apps[i].scheduledTasks.contains { $0.phase == .expirationDue }
        if expiring {
            schedule(i, .expireTasks, stage: 0)
        }
        let performs = apps[i].scheduledTasks.contains { $0.phase == .due }
        if performs {
            schedule(i, .performTasks, stage: expiring ? 1 : 0)
        }
        planDuePushes(i, stage: (expiring ? 1 : 0) + (performs ? 1 : 0))
    }

    /// The user comes back to the device (`wake`, `home`, `launch`, `activate`): every running `processing` task
    /// expires (B10), in a stage after the event's own moves.
    mutating func planProcessingExpiry() {
        guard runningProcessingTasks > 0, let stage = stageAfterPlannedWorks else {
            return
        }
        for i in apps.indices where index[apps[i].id] == i {
            var expires = false
            for k in apps[i].scheduledTasks.indices
            where apps[i].scheduledTasks[k].request.kind == .processing && apps[i].scheduledTasks[k].phase == .running {
                apps[i].scheduledTasks[k].phase = .expirationDue
                expires = true
            }
            if expires {
                schedule(i, .expireTasks, stage: stage)
            }
        }
    }

    /// The next move of a background-execution or data-protection work of app `i` (`Move.backgroundWork`).
    mutating func stepBackgroundWork(_ i: Int) {
        switch apps[i].work {
        case .performTasks:
            stepPerformTasks(i)
        case .deliverPushes:
            stepDeliverPushes(i)
        case .expireTasks:
            guard let k = apps[i].scheduledTasks.firstIndex(where: { $0.phase == .expirationDue }),
                apps[i].process == .connected, apps[i].state.isRunning
            else {
                return finishWork(i)
            }
            resumeIfSuspended(i)
            if deliverQueuedProtectedData(i) || stepScenesInBackground(i) {
                return  // its answer steps again
            }
            var task = apps[i].scheduledTasks[k]
            task.phase = .expiring
            cancelTimer(task.warning)
            task.warning = nil
            if task.expiry == nil {
                task.expiry = armTimer(.scheduledTaskExpiry(i), at: now + configuration.budgets.expirationWarning)
            }
            apps[i].scheduledTasks[k] = task
            recordTask(i, task.request, .expiring)
            send(
                i, .backgroundTaskWillExpire, to: apps[i].state, context: SceneCallbackContext(task: task.request),
                ownBudget: true)
        case .protectedDataLocking, .protectedDataUnlocked:
            let state = apps[i].state
            guard apps[i].process == .connected, state.isForeground || state == .background else {
                return finishWork(i)
            }
            let locking = apps[i].work == .protectedDataLocking
            if configuration.queuesProtectedDataNotifications && apps[i].heardProtectedDataAvailable != locking {
                return finishWork(i)  // it heard it already, at its resume or its launch
            }
            tellProtectedData(i, available: !locking)
        default:
            preconditionFailure("a background move for \(String(describing: apps[i].work))")
        }
    }

    /// `performTasks`: launch (B04), resume (B05), then each due task's launch handler — but not a launch the user's
    /// force-quit forbids (B64).
    private mutating func stepPerformTasks(_ i: Int) {
        deferForForceQuit(i)
        guard let k = apps[i].scheduledTasks.firstIndex(where: { $0.phase == .due }), canBackground(i) else {
            return finishWork(i)
        }
        if apps[i].state == .notRunning, apps[i].process != .none, apps[i].process != .connected {
            apps[i].scheduledTasks[k].phase = .pending  // its process is still ending: it runs when asked again
            return finishWork(i)
        }
        guard wakeInBackground(i, for: .backgroundTask) else {
            return  // launching: the launch's answer (or connection) steps again
        }
        var task = apps[i].scheduledTasks[k]
        task.phase = .running
        task.launchedAt = now
        switch task.request.kind {
        case .appRefresh:
            let budget = configuration.profile.appRefreshBudget
            let deadline = now + budget
            task.deadline = deadline
            task.warning = armTimer(
                .scheduledTaskWarning(i), at: deadline + (.zero - configuration.budgets.expirationWarning))
            task.expiry = armTimer(.scheduledTaskExpiry(i), at: deadline)
        case .processing:
            runningProcessingTasks += 1
        case .continuedProcessing:
            break
        }
        apps[i].scheduledTasks[k] = task
        recordTask(i, task.request, .launched)
        send(
            i, .performBackgroundTask, to: apps[i].state, context: SceneCallbackContext(task: task.request),
            ownBudget: true)
    }

    /// App `i` was force-quit by the user, has not been launched by the user since, and is not running: each due
    /// task of a kind `DeviceConfiguration.taskKindsAfterForceQuit` leaves out (by default `appRefresh`) does not
    /// launch it; it is journaled `deferred` and stays pending, without a date, so it runs when the controller runs it
    /// again (B64; `BGTaskScheduler` keeps a request until it runs or is cancelled: [inference]). A due task of a kind
    /// the knob lets through launches it as any (B65); once the app runs, its due tasks all run (the mark only keeps
    /// the app from being launched, as for a push).
    private mutating func deferForForceQuit(_ i: Int) {
        guard apps[i].forceQuit, apps[i].state == .notRunning else {
            return
        }
        for k in apps[i].scheduledTasks.indices where apps[i].scheduledTasks[k].phase == .due
            && !configuration.taskKindsAfterForceQuit.contains(apps[i].scheduledTasks[k].request.kind)
        {
            apps[i].scheduledTasks[k].phase = .pending
            recordTask(i, apps[i].scheduledTasks[k].request, .deferred)
        }
    }

    /// Gets app `i` running for background work: `true` when it runs (resumed if it was suspended) and owes neither
    /// a `didEnterBackground`, a net change of protected data nor a scene move (`stepScenesInBackground`); else it is
    /// being launched into the background for `reason` (`didFinishLaunching` sent, or its process asked for), told
    /// `didEnterBackground`, the net change or a scene callback (each answer steps the work again), or its process is
    /// still ending (`false`, nothing done). An app-delegate
    /// app launched or resumed for the event is told `didEnterBackground` before it (Apple's "About the background
    /// execution sequence": the launch or resume, then `applicationDidEnterBackground(_:)`, then the event); its
    /// background budget restarts there (`send`). A scene app is not: UIKit tells its scenes — none is connected, or
    /// (`connectsSceneAtBackgroundLaunch`) the one a launch connects is told `sceneDidEnterBackground` (S48).
    /// The net change comes after the `didEnterBackground` ([inference]: both are "delivered" once the app runs
    /// again; Apple orders neither against the other).
    mutating func wakeInBackground(_ i: Int, for reason: LaunchReason) -> Bool {
        switch (apps[i].state, apps[i].process) {
        case (.notRunning, .connected):
            apps[i].launchReason = reason
            apps[i].owesBackgroundEntry = !usesScenes(i)
            send(i, .didFinishLaunching, to: .background)
            enteredBackground(i)  // its background time runs from the launch; no scene launch is under way
            if usesScenes(i) {
                chooseBackgroundScene(i)  // S48: with the knob, a scene connects before the event's handler
            }
            return false
        case (.notRunning, .none):
            apps[i].launchReason = reason
            awaitLaunch(i)
            return false
        case (.notRunning, _):
            return false  // its process is still ending
        case (.suspended, _):
            resumeIfSuspended(i)
            apps[i].owesBackgroundEntry = !usesScenes(i)
            // The resume's net change of protected data: now for a scene app; after the `didEnterBackground` for
            // an app-delegate app, when its answer steps the work again (`step` tells it first). Then a scene
            // app's payload withheld behind the lock, when protected data is available (S52).
            return enterBackgroundIfOwed(i) && !deliverQueuedProtectedData(i) && !stepScenesInBackground(i)
        case (.background, _):
            return enterBackgroundIfOwed(i) && !stepScenesInBackground(i)
        case (.inactive, _), (.active, _):
            return true
        }
    }

    /// Sends the `didEnterBackground` app `i` owes after a background launch or resume (`false`: sent, the answer
    /// steps the work again); `true` when it owes none.
    private mutating func enterBackgroundIfOwed(_ i: Int) -> Bool {
        guard apps[i].owesBackgroundEntry else {
            return true
        }
        send(i, .didEnterBackground, to: .background)
        return false
    }

    /// A suspended app with work to do runs again in the background, without a callback (journaled `ok`).
    mutating func resumeIfSuspended(_ i: Int) {
        guard apps[i].state == .suspended else {
            return
        }
        setState(i, .background)
        record(Transition(
            app: apps[i].id, callback: nil, cause: activity.cause, from: .suspended, to: .background,
            fired: activity.cause == nil ? nil : activity.fired, sent: now, answered: nil, handlerDuration: nil,
            budget: .zero, outcome: .ok, pid: apps[i].pid ?? 0
        ))
    }

    /// A pending task's earliest begin date came: it is due (B06).
    mutating func scheduledTaskFellDue(_ i: Int, timer: TimerID) {
        guard let k = apps[i].scheduledTasks.firstIndex(where: { $0.due == timer }) else {
            preconditionFailure("a due timer no task holds")
        }
        apps[i].scheduledTasks[k].due = nil
        guard unmetRequirements(apps[i].scheduledTasks[k].request).isEmpty else {
            apps[i].scheduledTasks[k].waiting = true  // B15–B17: it runs when the conditions let it
            return
        }
        apps[i].scheduledTasks[k].phase = .due
        queue.append(.tasks(i))
    }

    /// A running task's budget is about to end: its expiration handler is due (B07).
    mutating func scheduledTaskWarned(_ i: Int, timer: TimerID) {
        guard let k = apps[i].scheduledTasks.firstIndex(where: { $0.warning == timer }) else {
            preconditionFailure("a warning timer no task holds")
        }
        apps[i].scheduledTasks[k].warning = nil
        apps[i].scheduledTasks[k].phase = .expirationDue
        queue.append(.tasks(i))
    }

    /// A task neither completed nor expired in time: its app is killed (B07), unless it is in the foreground.
    mutating func scheduledTaskExpired(_ i: Int, timer: TimerID) {
        guard let k = apps[i].scheduledTasks.firstIndex(where: { $0.expiry == timer }) else {
            preconditionFailure("an expiry timer no task holds")
        }
        let task = apps[i].scheduledTasks.remove(at: k)
        cancelTimer(task.warning)
        if task.request.kind == .processing {
            runningProcessingTasks -= 1
        }
        recordTask(i, task.request, .expired)
        if apps[i].state.isForeground {
            return  // the user is using the app: the task is over, the app is not killed [inference]
        }
        end(i, kill: .backgroundTaskExpired, outcome: .watchdog, cause: nil)
    }

    /// App `i`'s process ended: its registrations go with it, its running tasks are cancelled without a word (a
    /// switcher close, B14), and a due task waits again for the controller.
    mutating func scheduledTasksEnded(_ i: Int) {
        apps[i].registeredTasks = []
        var kept: [ScheduledTask] = []
        for var task in apps[i].scheduledTasks {
            switch task.phase {
            case .pending:
                kept.append(task)
            case .due:
                task.phase = .pending
                kept.append(task)
            case .running, .expirationDue, .expiring:
                cancelTimer(task.warning)
                cancelTimer(task.expiry)
                if task.request.kind == .processing {
                    runningProcessingTasks -= 1
                }
                recordTask(i, task.request, .cancelled)
            }
        }
        apps[i].scheduledTasks = kept
    }

    /// `reset` forgets app `i`: its pending tasks and deferred pushes are dropped.
    mutating func dropScheduledTasks(_ i: Int) {
        for task in apps[i].scheduledTasks {
            cancelTimer(task.due)
            recordTask(i, task.request, .cancelled)
        }
        apps[i].scheduledTasks = []
        cancelTimer(apps[i].pushes.window)
        apps[i].pushes = PushBook()
    }

    private mutating func recordTask(
        _ i: Int, _ request: BackgroundTaskRequest, _ event: TaskRecord.Event, success: Bool? = nil
    ) {
        out.append(.taskRecord(TaskRecord(
            app: apps[i].id, identifier: request.identifier, kind: request.kind, event: event, success: success,
            at: now)))
    }

    private mutating func rejectTask(_ app: AppID, _ reason: RejectionReason) {
        out.append(.reject(Rejection(app: app, reason: reason)))
    }
}
