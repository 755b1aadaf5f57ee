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
        guard apps[i].state.isRunning, apps[i].connection == .connected else {
            return reject(app, .appNotRunning)
        }
        guard !apps[i].tasks.contains(task) else {
            return reject(app, .duplicateTask)
        }
        if let deadline = apps[i].backgroundDeadline, now >= deadline {
            return reject(app, .backgroundTimeExpired)
        }
        apps[i].tasks.append(task)
        if apps[i].taskExpiryTimer != nil && apps[i].taskWarningTimer == nil {
            out.append(.backgroundTaskExpiring(app, taskID: task))  // the warning was already given
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
        apps[i].backgroundDeadline = configuration.budgets.backgroundTask.map { now + $0 }
        armTaskTimers(i)
    }

    /// `willEnterForeground` was sent: tasks run on without a budget while in the foreground.
    mutating func leftBackground(_ i: Int) {
        apps[i].backgroundDeadline = nil
        cancelTaskTimers(i)
    }

    /// A background app with nothing to do becomes `suspended` (unless a background mode keeps it running);
    /// the suspension is journaled without a callback, `ok`, with the event being carried out as its cause.
    mutating func settle(_ i: Int) {
        let app = apps[i]
        if app.state == .background, app.outstanding == nil, app.work == nil, app.tasks.isEmpty,
            app.flags.backgroundModes.isEmpty
        {
            setState(i, .suspended)
            let cause = chain?.cause
            record(Transition(
                app: app.id, callback: nil, cause: cause, from: .background, to: .suspended,
                fired: cause == nil ? nil : chain?.fired, sent: now, answered: nil, handlerDuration: nil,
                budget: .zero, outcome: .ok
            ))
        }
    }

    private mutating func armTaskTimers(_ i: Int) {
        guard apps[i].state == .background, !apps[i].tasks.isEmpty, apps[i].taskExpiryTimer == nil,
            let deadline = apps[i].backgroundDeadline
        else {
            return
        }
        let warning = deadline + (.zero - configuration.budgets.expirationWarning)
        if now >= warning {
            for task in apps[i].tasks {
                out.append(.backgroundTaskExpiring(apps[i].id, taskID: task))
            }
        } else {
            apps[i].taskWarningTimer = armTimer(.taskWarning(i), at: warning)
        }
        apps[i].taskExpiryTimer = armTimer(.taskExpiry(i), at: deadline)
    }

    private mutating func cancelTaskTimers(_ i: Int) {
        cancelTimer(apps[i].taskWarningTimer)
        cancelTimer(apps[i].taskExpiryTimer)
        apps[i].taskWarningTimer = nil
        apps[i].taskExpiryTimer = nil
    }

    private mutating func reject(_ app: AppID, _ reason: RejectionReason) {
        out.append(.reject(Rejection(app: app, reason: reason)))
    }
}
