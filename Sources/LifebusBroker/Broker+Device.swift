import Glibc
import LifebusCore
import LifebusIO
import LifebusProtocol
import LifebusRPC

/// The one path into the lifecycle machine, and the performing of every action it returns: callbacks become
/// requests to apps, timers become `LoopTimer`s, kills become SIGKILL to the kernel-reported pid, records go to the
/// journal and the observers, completed events answer their `fire`.
extension Broker {
    /// Feeds one input to the device at the current instant and performs the actions; returns the rejections.
    @discardableResult
    func feed(_ input: Input) -> [Rejection] {
        let now = clock.now()
        var actions = actionBuffer
        actionBuffer = []
        actions.removeAll(keepingCapacity: true)
        device.handle(input, at: now, into: &actions)
        var rejections: [Rejection] = []
        for action in actions {
            perform(action, now: now, rejections: &rejections)
        }
        actionBuffer = actions
        noteStateChanges(input: input, actions: actions, now: now)
        rescheduleDeviceTimer(now: now)
        return rejections
    }

    private func perform(_ action: Action, now: Instant, rejections: inout [Rejection]) {
        switch action {
        case .sendCallback(let app, let id, let callback, let budget, let cause):
            sendCallback(app: app, id: id, callback: callback, budget: budget, cause: cause)
        case .armTimer(let id, let deadline):
            timerSchedule.arm(id, at: deadline)
        case .cancelTimer(let id):
            timerSchedule.cancel(id)
        case .startProcess(let app):
            logger.info("waiting for the app to connect (the broker does not start processes)",
                        metadata: ["lifebus.app.id": "\(app)"])
        case .kill(let app, let reason):
            kill(app, reason: reason)
        case .backgroundTaskExpiring(let app, let taskID):
            appSessions[app]?.rpc.notify(
                LifebusMethod.backgroundTaskExpiring, params: BackgroundTaskExpiringParams(taskID: Int64(taskID)).json)
        case .record(let transition):
            record(transition)
        case .completeEvent(let id, _):
            let finished = events.finish(id)
            guard let responder = finished.responder else { return }
            afterJournaled { [unowned self] written in
                let eventID = Int64(id.rawValue)
                guard written && self.journaled(finished.records) else {
                    responder.fail(self.journalUnavailable(
                        "\(finished.label) happened but is not recorded", data: ["eventID": .integer(eventID)]))
                    return
                }
                let result = FireResult(
                    eventID: eventID, event: finished.label, completed: true, transitions: finished.records)
                responder.succeed(writing: result.write)
            }
        case .reject(let rejection):
            rejections.append(rejection)
            if let id = rejection.event {
                let finished = events.finish(id)
                guard let responder = finished.responder else { return }
                // A refusal records nothing itself, but it must not overtake the records made before it.
                afterJournaled { _ in
                    responder.fail(
                        EventRejection(reason: rejection.reason.rawValue, eventID: Int64(id.rawValue))
                            .error("\(finished.label): \(rejection)"))
                }
            }
        }
    }

    private func sendCallback(app: AppID, id: CallbackID, callback: Callback, budget: Duration, cause: EventID?) {
        guard let session = appSessions[app] else { return }  // gone: its disconnect is on its way to the core
        let params = CallbackParams(
            callbackID: Int64(id.rawValue),
            callback: callback.wire,
            state: device.state(of: app).wire,
            budgetMs: budget.inMilliseconds,
            cause: cause.map { events.cause($0) }
        )
        session.rpc.request(callback.rawValue, params: params.json) { [unowned self] answer in
            let handler: Duration?
            let failed: Bool
            switch answer {
            case .success(let value):
                let parsed = try? CallbackAnswer(json: value)
                handler = parsed?.handlerMs.map(Duration.init(clampingMilliseconds:))
                failed = parsed?.handlerFailed ?? false
            case .failure(let error) where error.lifebusCode == .connectionClosed:
                return  // the connection's end reaches the core as a disconnect
            case .failure:
                handler = nil  // the delegate method returned, with an error: still an answer, a failed one
                failed = true
            }
            self.feed(.callbackAnswered(app, id, handlerDuration: handler, handlerFailed: failed))
        }
    }

    /// Points the one libuv timer at the earliest armed deadline (or stops it when none is armed).
    private func rescheduleDeviceTimer(now: Instant) {
        guard !isShuttingDown else { return }
        let earliest = timerSchedule.earliestDeadline()
        guard earliest != scheduledDeadline else { return }
        scheduledDeadline = earliest
        guard let earliest else {
            deviceTimer?.stop()
            return
        }
        do throws(UVError) {
            if deviceTimer == nil { deviceTimer = try LoopTimer(loop: loop) }
        } catch {
            logger.error("cannot create the device timer", metadata: ["lifebus.error": "\(error)"])
            return
        }
        deviceTimer?.start(after: earliest > now ? earliest - now : .zero) { [unowned self] in
            self.deviceTimerFired()
        }
    }

    private func deviceTimerFired() {
        scheduledDeadline = nil
        for id in timerSchedule.takeDue(at: clock.now()) {
            feed(.timerFired(id))
        }
        rescheduleDeviceTimer(now: clock.now())
    }

    private func kill(_ app: AppID, reason: KillReason) {
        let session = appSessions[app]
        let pid = session?.identity.pid ?? device.snapshot(of: app)?.pid ?? 0
        // Never itself: an app connected from inside the broker's own process (the in-process fuzzer) shares its pid.
        if pid > 0, pid != getpid(), let error = ProcessSignal.kill(processOrItsGroup: pid), !error.isNoSuchProcess {
            logger.warning("cannot kill the app", metadata: ["lifebus.app.id": "\(app)", "lifebus.error": "\(error)"])
        }
        session?.rpc.close()
        logger.info("killed", metadata: ["lifebus.app.id": "\(app)", "lifebus.app.pid": "\(pid)",
                                         "lifebus.kill.reason": "\(reason.rawValue)"])
    }

    private func record(_ transition: Transition) {
        let record = TransitionRecord(
            seq: journal.nextSequence(),
            app: transition.app.rawValue,
            pid: pid(of: transition.app),
            callback: transition.callback?.wire,
            cause: transition.cause.map { events.cause($0) },
            from: transition.from.wire,
            to: transition.to.wire,
            firedMs: transition.fired.map(clock.milliseconds),
            sentMs: clock.milliseconds(transition.sent),
            answeredMs: transition.answered.map(clock.milliseconds),
            handlerMs: transition.handlerDuration?.inMilliseconds,
            budgetMs: transition.budget.inMilliseconds,
            outcome: transition.outcome.wire,
            wallMs: clock.wallMilliseconds(),
            handlerFailed: transition.handlerFailed
        )
        appendToJournal(.transition(record))
        if let cause = transition.cause { events.add(record, to: cause) }
        notifyObservers(LifebusMethod.transition, record.json)
    }

    /// The kernel's pid for the app's connection, else the one the core remembers.
    func pid(of app: AppID) -> Int32? {
        let pid = appSessions[app]?.identity.pid ?? device.snapshot(of: app)?.pid
        return pid.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Tells every observer of an entry once the entry is in the journal (or its write failed: they watch what
    /// happens, recorded or not).
    func notifyObservers(_ method: String, _ params: JSONValue) {
        guard !observers.isEmpty else { return }
        afterJournaled { [unowned self] _ in
            for observer in self.observers.values {
                observer.rpc.notify(method, params: params)
            }
        }
    }

    private func noteStateChanges(input: Input, actions: [Action], now: Instant) {
        var touched: [AppID] = []
        if let app = input.app { touched.append(app) }
        for action in actions {
            if let app = action.app { touched.append(app) }
        }
        for app in touched {
            let state = device.state(of: app)
            guard stateSince[app]?.state != state else { continue }
            stateSince[app] = (state, now)
            answerWaiters(of: app, reached: state)
        }
    }

    private func answerWaiters(of app: AppID, reached state: AppState) {
        guard !waiters.isEmpty else { return }
        for waiter in waiters.takeSatisfied(app: app, state: state) {
            waiter.responder.succeed(WaitResult(
                app: app.rawValue, state: state.wire, sinceMs: sinceMilliseconds(of: app)).json)
        }
    }

    /// When the app entered its current state, in broker milliseconds.
    func sinceMilliseconds(of app: AppID) -> Double {
        stateSince[app].map { clock.milliseconds($0.since) } ?? 0
    }
}

extension Input {
    /// The app the input concerns, if one.
    var app: AppID? {
        switch self {
        case .appConnected(let app, _, _), .appDisconnected(let app), .processExited(let app, _),
            .callbackAnswered(let app, _, _, _), .backgroundTaskBegan(let app, _), .backgroundTaskEnded(let app, _),
            .memoryFootprint(let app, _):
            app
        case .fire, .timerFired:
            nil
        }
    }
}

extension Action {
    /// The app the action concerns, if one.
    var app: AppID? {
        switch self {
        case .sendCallback(let app, _, _, _, _), .startProcess(let app), .kill(let app, _),
            .backgroundTaskExpiring(let app, _):
            app
        case .record(let transition):
            transition.app
        case .armTimer, .cancelTimer, .completeEvent, .reject:
            nil
        }
    }
}
