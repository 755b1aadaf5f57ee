import LifebusLifecycle

/// Running chains: one controller event (or connection) at a time, stage by stage; within a stage every
/// app walks its own callbacks, one outstanding callback per app.
extension Device {
    /// Runs the device until it must wait for an answer, a connection or a timer.
    mutating func advance() {
        while true {
            if chain != nil {
                if chain!.running > 0 {
                    return
                }
                if chain!.next < chain!.works.count {
                    let stage = chain!.works[chain!.next].stage
                    while chain != nil, chain!.next < chain!.works.count, chain!.works[chain!.next].stage == stage {
                        let work = chain!.works[chain!.next]
                        chain!.next += 1
                        apps[work.app].work = work.intent
                        chain!.running += 1
                        step(work.app)
                    }
                    continue
                }
                finishChain()
                continue
            }
            guard let entry = queue.popFirst() else {
                return
            }
            switch entry {
            case .event(let id, let event, let fired):
                chain = Chain(cause: id, fired: fired)
                plan(event)
            case .connected(let i):
                chain = Chain(cause: nil, fired: nil)
                planConnection(i)
            }
        }
    }

    /// Adds `intent` for app `i` to the chain being planned.
    mutating func schedule(_ i: Int, _ intent: Intent, stage: Int) {
        chain!.works.append(Work(app: i, intent: intent, stage: stage))
    }

    /// Answers the event being planned with a rejection; the device is left as it was.
    mutating func refuse(_ reason: RejectionReason, app: AppID? = nil) {
        let id = chain!.cause
        chain = nil
        if let id {
            unanswered.remove(id)
        }
        out.append(.reject(Rejection(event: id, app: app, reason: reason)))
    }

    private mutating func finishChain() {
        let finished = chain!
        chain = nil
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

    /// Sends app `i` its next callback for its work, or completes the work.
    mutating func step(_ i: Int) {
        guard let intent = apps[i].work else {
            return
        }
        let state = apps[i].state
        switch intent {
        case .memoryWarning:
            if state.isForeground || state == .background {
                send(i, .didReceiveMemoryWarning, to: state)
            } else {
                finishWork(i)
            }
        case .terminate:
            switch state {
            case .notRunning:
                finishWork(i)
            case .suspended:
                end(i, kill: .system, outcome: .killed, cause: chain?.cause)
            case .active, .inactive, .background:
                send(i, .willTerminate, to: .notRunning)
            }
        case .launchInBackground:
            if !canBackground(i) && front == i {
                // The process that connected may not run in the background: it launches as the front app.
                apps[i].work = .moveTo(frontTarget(i))
                step(i)
            } else if !canBackground(i) {
                finishWork(i)
            } else if state == .notRunning && apps[i].connection == .connected {
                send(i, .didFinishLaunching, to: .background)
            } else if state == .notRunning && front == i {
                awaitLaunch(i)
            } else if state == .background {
                apps[i].work = .enterBackground
                send(i, .didEnterBackground, to: .background)
            } else {
                finishWork(i)
            }
        case .enterBackground:
            finishWork(i)
        case .moveTo(let target):
            if target.isForeground && front != i {
                // The app ended while waiting for its stage and is no longer F: the event completes without it.
                finishWork(i)
                return
            }
            if state == .notRunning && apps[i].connection != .connected {
                if target.isForeground {
                    awaitLaunch(i)
                } else {
                    finishWork(i)
                }
                return
            }
            if let (callback, next) = Self.nextStep(from: state, to: target, canBackground: canBackground(i)) {
                send(i, callback, to: next)
            } else {
                finishWork(i)
            }
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

    /// Whether app `i` may run in the background (else leaving the front terminates it).
    func canBackground(_ i: Int) -> Bool {
        configuration.profile.hasMultitasking && !apps[i].flags.exitsOnSuspend
    }

    /// Sends `callback` to app `i`, whose state becomes `next` at once, and arms its watchdog.
    private mutating func send(_ i: Int, _ callback: LifecycleCallback, to next: LifecycleState) {
        var budget = configuration.budgets[callback]
        if callback == .didFinishLaunching, let deadline = apps[i].launchDeadline {
            budget = (deadline - now).clampedToZero
            apps[i].launchDeadline = nil
        }
        lastCallbackID += 1
        let id = CallbackID(lastCallbackID)
        let timer = armTimer(.watchdog(i), at: now + budget)
        apps[i].outstanding = Outstanding(
            id: id, callback: callback, from: apps[i].state, to: next, sent: now, budget: budget, timer: timer,
            late: false
        )
        setState(i, next)
        out.append(.sendCallback(apps[i].id, id, callback, to: next, budget: budget, cause: chain?.cause))
        switch callback {
        case .didEnterBackground:
            enteredBackground(i)
        case .willEnterForeground:
            leftBackground(i)
        case .willTerminate:
            leftBackground(i)
            apps[i].tasks = []
        default:
            break
        }
    }

    /// Handles an app's answer to its outstanding callback.
    mutating func answer(_ app: AppID, _ id: CallbackID, handlerDuration: Duration?, handlerFailed: Bool) {
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
        record(Transition(
            app: app, callback: done.callback, cause: chain?.cause, from: done.from, to: done.to,
            fired: chain?.fired, sent: done.sent, answered: now, handlerDuration: handlerDuration,
            budget: done.budget, outcome: done.late ? .late : .ok, handlerFailed: handlerFailed
        ))
        if done.callback == .willTerminate {
            apps[i].connection = .exiting
            apps[i].exitGraceTimer = armTimer(.exitGrace(i), at: now + configuration.budgets.exitGrace)
        }
        switch apps[i].work {
        case .moveTo, .launchInBackground:
            step(i)
        case .memoryWarning, .terminate, .enterBackground:
            finishWork(i)
        case nil:
            preconditionFailure("a callback was outstanding outside any chain")
        }
    }

    /// App `i` has done its part of the chain.
    mutating func finishWork(_ i: Int) {
        precondition(apps[i].work != nil && chain != nil, "finishing work that is not running")
        apps[i].work = nil
        chain!.running -= 1
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
        out.append(.stateChanged(apps[i].id, from: from, to: state, at: now))
    }

    mutating func armTimer(_ purpose: TimerPurpose, at deadline: Instant) -> TimerID {
        lastTimerID += 1
        let id = TimerID(lastTimerID)
        timers[id] = purpose
        out.append(.armTimer(id, deadline: deadline))
        return id
    }

    mutating func cancelTimer(_ id: TimerID?) {
        guard let id else {
            return
        }
        timers.removeValue(forKey: id)
        out.append(.cancelTimer(id))
    }
}
