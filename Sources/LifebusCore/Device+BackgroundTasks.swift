import LifebusLifecycle

/// Background execution: the budget an app gets when it enters the background, the tasks that keep it
/// running, the expiration warning, and suspension once it has nothing left to do.
extension Device {
    mutating func beginBackgroundTask(_ app: AppID, _ task: UInt64) {
        guard let i = index[app] else {
            return reject(app, .unknownApp)
        }
        guard configuration.profile.hasMultitasking, configuration.budgets.backgroundTask != nil else {
            return reject(app, .backgroundTasksUnavailable)
        }
        guard apps[i].state != .suspended else {
            return reject(app, .appSuspended)
        }
        guard apps[i].state.isRunning, apps[i].process == .connected else {
            return reject(app, .appNotRunning)
        }
        guard !apps[i].tasks.contains(task) else {
            return reject(app, .duplicateTask)
        }
        if let background = apps[i].background, now >= background.deadline {
            return reject(app, .backgroundTimeExpired)
        }
        apps[i].tasks.append(task)
        if let background = apps[i].background, background.expiry != nil && background.warning == nil {
            out.append(.backgroundTaskExpiring(app, taskID: task))  // the warning was already given
            apps[i].background?.warnedAt = now
        }
        armTaskTimers(i)
    }

    mutating func endBackgroundTask(_ app: AppID, _ task: UInt64) {
        guard let i = index[app] else {
            return reject(app, .unknownApp)
        }
        guard configuration.profile.hasMultitasking, configuration.budgets.backgroundTask != nil else {
            return reject(app, .backgroundTasksUnavailable)
        }
        guard apps[i].state != .suspended else {
            return reject(app, .appSuspended)
        }
        guard let position = apps[i].tasks.firstIndex(of: task) else {
            return reject(app, .unknownTask)
        }
        apps[i].tasks.remove(at: position)
        if apps[i].tasks.isEmpty {
            cancelTaskTimers(i)
        }
        settle(i)
    }

    /// `didEnterBackground` was sent: the background budget starts now.
    mutating func enteredBackground(_ i: Int) {
        if let budget = configuration.budgets.backgroundTask {
            let armed = apps[i].background
            apps[i].background = AppRecord.BackgroundTime(
                deadline: now + budget, warning: armed?.warning, expiry: armed?.expiry, warnedAt: armed?.warnedAt)
        }
        armTaskTimers(i)
    }

    /// `willEnterForeground` was sent: tasks run on without a budget while in the foreground.
    mutating func leftBackground(_ i: Int) {
        cancelTaskTimers(i)
        apps[i].background = nil
    }

    /// A background app with nothing to do becomes `suspended` (unless a continuous background mode keeps it running);
    /// the suspension is journaled without a callback, `ok`, with the event being carried out as its cause.
    mutating func settle(_ i: Int) {
        // Field by field, in place: a copy of the record would retain its tables on every answer.
        if apps[i].state == .background, apps[i].outstanding == nil, apps[i].work == nil, apps[i].tasks.isEmpty,
            !apps[i].flags.keepsRunningInBackground, apps[i].scheduledTasks.isEmpty || !apps[i].hasRunningScheduledTask
        {
            setState(i, .suspended)
            let cause = activity.cause
            record(Transition(
                app: apps[i].id, callback: nil, cause: cause, from: .background, to: .suspended,
                fired: cause == nil ? nil : activity.fired, sent: now, answered: nil, handlerDuration: nil,
                budget: .zero, outcome: .ok, pid: apps[i].pid ?? 0
            ))
        }
    }

    private mutating func armTaskTimers(_ i: Int) {
        guard apps[i].state == .background, !apps[i].tasks.isEmpty, let deadline = apps[i].background?.deadline,
            apps[i].background?.expiry == nil
        else {
            return
        }
        let warning = deadline + (.zero - configuration.budgets.expirationWarning)
        if now >= warning {
            warnTasksExpiring(i)
        } else {
            let timer = armTimer(.taskWarning(i), at: warning)
            apps[i].background?.warning = timer
        }
        let timer = armTimer(.taskExpiry(i), at: deadline)
        apps[i].background?.expiry = timer
    }

    /// Tells app `i` each of its open background tasks expires (its budget's warning), now.
    mutating func warnTasksExpiring(_ i: Int) {
        for task in apps[i].tasks {
            out.append(.backgroundTaskExpiring(apps[i].id, taskID: task))
        }
        apps[i].background?.warnedAt = now
    }

    /// Cancels the expiration warning and the expiry of app `i`'s background tasks; the budget itself runs on.
    mutating func cancelTaskTimers(_ i: Int) {
        cancelTimer(apps[i].background?.warning)
        cancelTimer(apps[i].background?.expiry)
        apps[i].background?.warning = nil
        apps[i].background?.expiry = nil
    }

    private mutating func reject(_ app: AppID, _ reason: RejectionReason) {
        out.append(.reject(Rejection(app: app, reason: reason)))
    }
}
