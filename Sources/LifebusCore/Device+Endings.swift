import LifebusLifecycle

/// How apps end (killed, crashed, exited), how the device waits for a process to start, and what each
/// timer does when it fires.
extension Device {
    /// App `i` ends now: its outstanding callback (or, without one, its end) is journalled with `outcome`,
    /// its part of the chain completes, its timers are cancelled, and it becomes `notRunning`.
    /// With `kill`, the caller is asked to kill its process.
    mutating func end(_ i: Int, kill: KillReason?, outcome: TransitionOutcome, cause: EventID?) {
        let app = apps[i].id
        if let kill {
            out.append(.kill(app, reason: kill))
        }
        if let done = apps[i].outstanding {
            cancelTimer(done.timer)
            apps[i].outstanding = nil
            let scene = usesScenes(i) ? apps[i].scenes.outstandingScene.take() : nil
            record(Transition(
                app: app, callback: done.callback, cause: activity.cause, from: done.from, to: .notRunning,
                fired: activity.fired, sent: done.sent, answered: nil, handlerDuration: nil, budget: done.budget,
                outcome: outcome, pid: apps[i].pid ?? 0,
                scene: scene.map { SceneTransition(ref: $0.ref, from: $0.from, to: .unattached) }
            ))
        } else {
            record(Transition(
                app: app, callback: nil, cause: cause, from: apps[i].state, to: .notRunning,
                fired: cause == nil ? nil : activity.fired, sent: now, answered: nil, handlerDuration: nil,
                budget: .zero, outcome: outcome, pid: apps[i].pid ?? 0
            ))
        }
        leaveProcess(i, as: kill == nil ? .none : .killed)
        cancelTimer(apps[i].launch?.timer)
        apps[i].launch = nil
        apps[i].tasks = []
        apps[i].background = nil
        apps[i].owesBackgroundEntry = false
        if !apps[i].scheduledTasks.isEmpty || !apps[i].registeredTasks.isEmpty {
            scheduledTasksEnded(i)
        }
        if apps[i].pushes.endsWithProcess {
            pushesEnded(i)
        }
        if usesScenes(i) {
            scenesEnded(i)
        }
        setState(i, .notRunning)
        if front == i {
            front = nil
        }
        if apps[i].work != nil {
            apps[i].work = nil
            activity.modifyChain { $0.running -= 1 }
        }
    }

    /// App `i`'s process is now `process` (gone, or killed and waited for): cancels the timers that belong to
    /// the process it had (not the watchdog of its outstanding callback, nor a launch timer, which waits for the
    /// next process).
    mutating func leaveProcess(_ i: Int, as process: AppRecord.Process) {
        cancelTaskTimers(i)
        if case .exiting(let grace) = apps[i].process {
            cancelTimer(grace)
        }
        apps[i].process = process
    }

    /// App `i` must come to the front but has no process: ask for one and wait, counting the launch budget.
    mutating func awaitLaunch(_ i: Int) {
        let deadline = now + configuration.budgets[.didFinishLaunching]
        apps[i].launch = AppRecord.PendingLaunch(deadline: deadline, timer: armTimer(.launch(i), at: deadline))
        out.append(.startProcess(apps[i].id))
    }

    /// The process `awaitLaunch` asked for could not be started: the launch fails now, as at its deadline.
    mutating func failLaunch(_ app: AppID) {
        guard let i = index[app], let timer = apps[i].launch?.timer else { return }
        cancelTimer(timer)
        apps[i].launch = nil
        activity.modifyChain { $0.failure = Rejection(event: $0.cause, app: app, reason: .launchFailed) }
        if front == i {
            front = nil
        }
        pushesEnded(i)  // the pushes due waited for this launch
        finishWork(i)
    }

    /// App `i` connected without adopting scenes where the profile requires them (`ios27`): UIKit's assert at
    /// launch. Its process is killed (`sceneLifecycleRequired`), the end journaled `killed` without a callback, and
    /// the launch that waited for it refused `sceneLifecycleRequired` (S30).
    mutating func failSceneLaunch(_ i: Int) {
        let app = apps[i].id
        activity.modifyChain { $0.failure = Rejection(event: $0.cause, app: app, reason: .sceneLifecycleRequired) }
        end(i, kill: .sceneLifecycleRequired, outcome: .killed, cause: activity.cause)
    }

    /// An app over its memory limit is killed silently, as jetsam does, whatever its state; one without a live
    /// process is refused `appNotRunning`.
    mutating func killOverLimit(_ app: AppID) {
        guard let i = index[app], apps[i].process == .connected, apps[i].state != .notRunning else {
            out.append(.reject(Rejection(app: app, reason: .appNotRunning)))
            return
        }
        end(i, kill: .jetsam, outcome: .jetsam, cause: nil)
    }

    /// The earliest armed timer is due: it fires (`Input.deadlineReached`); with none due, the input is refused.
    mutating func deadlineReached() {
        guard let due = timers.takeDue(at: now) else {
            out.append(.reject(Rejection(reason: .unknownTimer)))
            return
        }
        let id = due.id
        let purpose = due.purpose
        guard let i = purpose.app else {
            return protectedDataLocked()  // the one device timer
        }
        switch purpose {
        case .watchdog:
            precondition(apps[i].outstanding?.timer == id, "a watchdog fired for no outstanding callback")
            if configuration.enforcesWatchdog {
                apps[i].outstanding!.timer = nil
                end(i, kill: .watchdog, outcome: .watchdog, cause: nil)
            } else {
                apps[i].outstanding!.timer = nil
                apps[i].outstanding!.late = true
            }
        case .launch:
            apps[i].launch = nil
            let app = apps[i].id
            activity.modifyChain { $0.failure = Rejection(event: $0.cause, app: app, reason: .launchTimedOut) }
            if front == i {
                front = nil
            }
            pushesEnded(i)  // the pushes due waited for this launch
            finishWork(i)
        case .taskWarning:
            apps[i].background?.warning = nil
            warnTasksExpiring(i)
        case .taskExpiry:
            apps[i].background?.expiry = nil
            cancelTaskTimers(i)
            end(i, kill: .backgroundTaskExpired, outcome: .watchdog, cause: nil)
        case .exitGrace:
            apps[i].process = .killed
            out.append(.kill(apps[i].id, reason: .system))
            record(Transition(
                app: apps[i].id, callback: nil, cause: nil, from: .notRunning, to: .notRunning, fired: nil,
                sent: now, answered: nil, handlerDuration: nil, budget: .zero, outcome: .killed, pid: apps[i].pid ?? 0
            ))
        case .scheduledTaskDue:
            scheduledTaskFellDue(i, timer: id)
        case .scheduledTaskWarning:
            scheduledTaskWarned(i, timer: id)
        case .scheduledTaskExpiry:
            scheduledTaskExpired(i, timer: id)
        case .pushWindow:
            pushWindowOpened(i)
        case .protectedDataLock:
            preconditionFailure("the protected-data lock belongs to no app")
        }
    }
}
