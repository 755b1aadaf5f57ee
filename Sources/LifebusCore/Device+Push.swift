import LifebusLifecycle

/// Remote notifications (`Protocol/lifecycle.md` B30–B34): a silent push is handed to the app through the app
/// delegate (`didReceiveRemoteNotification`, scene apps too), launching it into the background if it is not running
/// (`launchReason: remoteNotification`) or resuming it if suspended; its completion handler has the callback's
/// budget (30 s). An app the user force-quit is not launched for one (B42: it is `discarded`) until the user launches
/// it again (B43). Over `Profile.silentPushesPerHour` in an hour the newest push is held, discarding the one held
/// before (B32, B44); any end of the app's process discards it; the hour's window or the user's launch delivers it
/// (B45). A visible
/// notification reaches the app only when tapped (`launch APP --push`): it is journaled `delivered`, nothing more —
/// unless the app is in the foreground, which is asked how to present it (`Device+Presentation.swift`, B60–B63);
/// `push --tap` is the notification and its tap in one event (B35, B36): `delivered`, then what `launch APP --push`
/// does.
extension Device {
    /// `fire push APP` (`silent`), `fire push APP --alert` and `fire push APP --tap`.
    mutating func planPush(_ app: AppID, _ notification: PushNotification) {
        if notification.tapped {
            guard !locked else {
                return refuse(.deviceLocked, app: app)  // a tap on the lock screen asks for the unlock first
            }
            recordPush(record(for: app), .delivered, payload: notification.payload)
            planLaunch(app, requireRunning: false, options: SceneConnectionOptions(
                notificationResponse: notification.payload))
            planProcessingExpiry()
            return
        }
        let i = record(for: app)
        guard notification.contentAvailable else {
            recordPush(i, .delivered, payload: notification.payload)  // B33: shown, nothing reaches the app
            offerPresentation(i, notification.payload)  // B60, B61: unless it is in the foreground
            return
        }
        guard configuration.profile.silentPushBudget != nil else {
            return refuse(.backgroundTasksUnavailable, app: app)  // no silent push before iOS 7
        }
        forgetOldDeliveries(i)
        if apps[i].forceQuit && apps[i].state == .notRunning {
            recordPush(i, .discarded, payload: notification.payload)  // B42: not launched after a force-quit
            return
        }
        guard apps[i].pushes.held == nil,
            apps[i].pushes.delivered.count + apps[i].pushes.due.count < configuration.profile.silentPushesPerHour
        else {
            return hold(i, notification.payload)
        }
        apps[i].pushes.due.append(notification.payload)
        schedule(i, .deliverPushes, stage: 0)
    }

    /// `deliverPushes`: each visible notification's `willPresentNotification` first (`offerNextPresentation`), then
    /// for the silent pushes: launch (B31), resume (B30), then each due push's `didReceiveRemoteNotification`.
    mutating func stepDeliverPushes(_ i: Int) {
        if offerNextPresentation(i) {
            return
        }
        guard !apps[i].pushes.due.isEmpty, canBackground(i) || apps[i].state.isForeground else {
            return finishWork(i)  // pushes still due wait for the app's next deliverPushes
        }
        if apps[i].state == .notRunning, apps[i].process != .none, apps[i].process != .connected {
            return finishWork(i)
        }
        guard wakeInBackground(i, for: .remoteNotification) else {
            return
        }
        let payload = apps[i].pushes.due.removeFirst()
        apps[i].pushes.inFlight = payload
        apps[i].pushes.delivered.append(now)
        armPushWindow(i)
        recordPush(i, .delivered, payload: payload)
        send(
            i, .didReceiveRemoteNotification, to: apps[i].state, context: SceneCallbackContext(payload: payload),
            ownBudget: true)
    }

    /// The app called the push's completion handler (the callback's answer): `answered`, or `late` after its budget.
    mutating func pushAnswered(_ i: Int, late: Bool) {
        guard let payload = apps[i].pushes.inFlight.take() else {
            return
        }
        let result = apps[i].pushes.result.take() ?? .noData  // an answer without a result: the handler's default
        recordPush(i, late ? .late : .answered, result: result, payload: payload)
    }

    /// The rate window allows the held push: it is due now (its own chain, `QueuedWork.tasks`).
    mutating func pushWindowOpened(_ i: Int) {
        apps[i].pushes.window = nil
        forgetOldDeliveries(i)
        guard apps[i].pushes.delivered.count + apps[i].pushes.due.count < configuration.profile.silentPushesPerHour,
            let held = apps[i].pushes.held.take()
        else {
            return armPushWindow(i)
        }
        apps[i].pushes.due.append(held)
        queue.append(.tasks(i))
    }

    /// The user launched app `i` (`launch`, `activate`, a tap, a scene opened or reconnected, or its process came to
    /// the front on its own): a force-quit no longer keeps silent pushes (B43) or its tasks (B66) from launching it,
    /// and its held push is delivered at once, after the launch's moves and what it opened (B45: "If the user launches
    /// the app, the system immediately delivers the held notification"; the order is [inference]). Called once the
    /// launch is planned.
    mutating func userLaunched(_ i: Int) {
        apps[i].forceQuit = false
        guard let held = apps[i].pushes.held.take() else {
            return
        }
        cancelTimer(apps[i].pushes.window.take())
        apps[i].pushes.due.append(held)
        schedule(i, .deliverPushes, stage: stageAfterPlannedWorks ?? 0)
    }

    /// Holds `payload` over the rate limit: only the newest push is held, the one held before is discarded (B44:
    /// "the system discards the older notification and only holds the newest one").
    private mutating func hold(_ i: Int, _ payload: String) {
        if let older = apps[i].pushes.held {
            recordPush(i, .discarded, payload: older)
        }
        apps[i].pushes.held = payload
        recordPush(i, .deferred, payload: payload)
        armPushWindow(i)
    }

    /// The chain `QueuedWork.tasks` plans for pushes: delivers the due ones.
    mutating func planDuePushes(_ i: Int, stage: Int) {
        if !apps[i].pushes.due.isEmpty {
            schedule(i, .deliverPushes, stage: stage)
        }
    }

    /// App `i`'s process ended: a push handed over and not answered is lost with it, and so are the pushes due but
    /// not yet handed over (the launch or resume they waited for ended with the process: under `ios27` an app that
    /// does not adopt scenes never gets past it) — [inference]: iOS wakes an app for a push once. The held push is
    /// discarded (journaled `discarded`): "If something force quits or kills the app, the system discards the held
    /// notification" — here every end, the clean exit after `willTerminate` and a crash too ([inference]). Called at
    /// every end of a process: `end` (a crash, a kill), the exit that follows `willTerminate` or a kill (a push that
    /// fell due while the process was going waited for it to go, `stepDeliverPushes`), and a launch that failed or
    /// timed out.
    mutating func pushesEnded(_ i: Int) {
        apps[i].pushes.inFlight = nil
        apps[i].pushes.result = nil
        presentationsEnded(i)
        apps[i].pushes.due.removeAll()
        if let held = apps[i].pushes.held.take() {
            cancelTimer(apps[i].pushes.window.take())
            recordPush(i, .discarded, payload: held)
        }
    }

    /// Arms the window timer while a push is held: when the oldest delivery of the hour leaves it. Only a delivery
    /// opens the window, so with none in the hour (the pushes that fill it are still due) nothing is armed until the
    /// first of them is delivered; due pushes lost with their app's process discard the held one with it.
    private mutating func armPushWindow(_ i: Int) {
        guard apps[i].pushes.window == nil, apps[i].pushes.held != nil,
            let oldest = apps[i].pushes.delivered.first
        else {
            return
        }
        apps[i].pushes.window = armTimer(.pushWindow(i), at: oldest + .seconds(3600))
    }

    private mutating func forgetOldDeliveries(_ i: Int) {
        apps[i].pushes.delivered.removeAll { $0 + .seconds(3600) <= now }
    }

    mutating func recordPush(
        _ i: Int, _ event: PushRecord.Event, result: BackgroundFetchResult? = nil,
        presentation: NotificationPresentationOptions? = nil, payload: String
    ) {
        out.append(.pushRecord(PushRecord(
            app: apps[i].id, event: event, result: result, presentation: presentation, payload: payload, at: now)))
    }
}
