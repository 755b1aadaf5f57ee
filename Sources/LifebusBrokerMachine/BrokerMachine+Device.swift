import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The one path into the lifecycle machine, and what becomes of every action it returns: callbacks become requests
/// to apps, kills go to the kernel-reported pid, records go to the journal and the observers, completed events
/// answer their `fire`; after each feed the core's earliest deadline moves the clock's one entry for the device.
extension BrokerMachine {
    /// Feeds one input to the device at `lifecycleNow` and turns its actions into effects; returns the rejections.
    @discardableResult
    mutating func feedDevice(_ input: Input, into effects: inout [BrokerEffect]) -> [Rejection] {
        var actions = actionBuffer
        actionBuffer = []
        device.handle(input, at: lifecycleNow, into: &actions)
        var rejections: [Rejection] = []
        actions.withUnsafeMutableBufferPointer { buffer in  // one uniqueness check, not one per action
            for index in buffer.indices {
                // Moved out of the buffer, a reference-free action left in its place: a copy would retain what the
                // action carries, and emptying the buffer would release it again.
                var action = Action.completeEvent(EventID(0))
                swap(&action, &buffer[index])
                perform(consume action, rejections: &rejections, into: &effects)
            }
        }
        // Emptied from the end: each slot holds a reference-free action now, dropped in place, where
        // `removeAll(keepingCapacity:)` goes through the generic range replacement and each element's value witness.
        while !actions.isEmpty { actions.removeLast() }
        actionBuffer = actions
        clock.deviceDeadlineMoved(to: device.earliestDeadline)
        answerWaitersOfChangedApps(into: &effects)
        return rejections
    }

    /// Feeds `deadlineReached` once per core timer due at `lifecycleNow`, earliest first (the core keeps their
    /// order: several at one deadline in the order they were armed): an `advance`'s step, on virtual time.
    mutating func feedDueDeviceDeadlines(into effects: inout [BrokerEffect]) {
        while let deadline = device.earliestDeadline, deadline <= lifecycleNow {
            feedDevice(.deadlineReached, into: &effects)
        }
    }

    /// Consumes `action`: its payloads are moved into the calls, not copied and released again (the callback's app
    /// and scene context, the transition: ~40 instructions a callback under callgrind).
    private mutating func perform(
        _ action: consuming Action, rejections: inout [Rejection], into effects: inout [BrokerEffect]
    ) {
        switch consume action {
        case .sendCallback(let app, let id, let callback, let state, let budget, let cause, let scene):
            sendCallback(app: app, id: id, callback: callback, state: state, budget: budget, cause: cause,
                         scene: scene, into: &effects)
        case .stateChanged(let app, let from, let to, let at):
            deliveries.stateChanged(app, at: at)
            freezeOrThaw(app, from: from, to: to, into: &effects)
        case .startProcess(let app):
            startProcess(app, into: &effects)
        case .kill(let app, let reason):
            kill(app, reason: reason, into: &effects)
        case .backgroundTaskExpiring(let app, let taskID):
            guard let session = sessions.session(for: app) else { return }
            let params = BackgroundTaskExpiringParams(taskID: Int64(taskID)).json
            effects.append(.notify(session, method: LifebusMethod.backgroundTaskExpiring, params: params))
        case .record(let transition):
            record(transition, into: &effects)
        case .sceneChanged(let app, let ref, _, let to, let at):
            // A scene's state travels in its callback's request and record; `status` asks the device; scene waits
            // are answered from here.
            deliveries.sceneChanged(app, ref.scene, to: to, at: at)
        case .taskRecord(let step):
            recordTask(step, into: &effects)
        case .pushRecord(let step):
            recordPush(step, into: &effects)
        case .protectedData(let available):
            protectedDataChanged(available: available, into: &effects)
        case .completeEvent(let id):
            let finished = deliveries.events.finish(id)
            guard let ticket = finished.ticket else { return }
            let delivery = Delivery.event(ticket, id, finished)
            afterJournaled(delivery, into: &effects)
        case .reject(let rejection):
            rejections.append(rejection)
            if rejection.reason == .launchTimedOut, let app = rejection.app { launchTimedOut(app, into: &effects) }
            if let id = rejection.event {
                let finished = deliveries.events.finish(id)
                guard let ticket = finished.ticket else { return }
                // A refusal records nothing itself, but it must not overtake the records made before it.
                let error = refusalError(rejection, eventID: Int64(id.rawValue), label: finished.label)
                afterJournaled(.refusal(ticket, error), into: &effects)
            }
        }
    }

    private mutating func sendCallback(
        app: AppID, id: CallbackID, callback: LifecycleCallback, state: LifecycleState, budget: Duration,
        cause: EventID?, scene: SceneCallbackContext?, into effects: inout [BrokerEffect]
    ) {
        // Gone: its disconnect is on its way to the core.
        guard let session = sessions.session(for: app) else { return }
        var params = CallbackParams(
            callbackID: Int64(id.rawValue),
            callback: callback,
            state: state,
            budgetMs: budget.inMilliseconds,
            cause: cause.map { deliveries.events.causeOfCallback($0) },
            launch: callback == .didFinishLaunching ? launchContext(of: app, cause: cause, into: &effects) : nil
        )
        if let scene { Self.addScene(scene, to: &params) }
        effects.append(.sendCallback(session, params: params, app: app, id: id))
    }

    /// The core's scene context, as the request's scene members (passed through untranslated).
    private static func addScene(_ context: SceneCallbackContext, to params: inout CallbackParams) {
        if let ref = context.scene, let sceneState = context.sceneState {
            params.scene = CallbackScene(
                scene: ref.scene, session: ref.session, sceneState: sceneState, posts: context.posts,
                options: context.options, restoration: context.restoration)
        }
        params.sessions = context.sessions
        if context.task != nil || context.payload != nil || context.launchReason != nil
            || context.launchOptions != nil || context.url != nil
        {
            params.background = CallbackBackground(
                launchReason: context.launchReason, identifier: context.task?.identifier, kind: context.task?.kind,
                payload: context.payload, launchOptions: context.launchOptions, url: context.url)
        }
    }

    /// An app answered a callback (or its delegate method failed): the core hears it with the handler's time.
    mutating func callbackAnswered(
        _ app: AppID, _ id: CallbackID, _ answer: Result<AnswerTiming, RPCError>, into effects: inout [BrokerEffect]
    ) {
        let handler: Duration?
        let failed: Bool
        switch answer {
        case .success(let answer):
            handler = answer.handlerMs.map(Duration.init(clampingMilliseconds:))
            failed = answer.handlerFailed
        case .failure(let error) where error.lifebusCode == .connectionClosed:
            return  // the connection's end reaches the core as a disconnect
        case .failure:
            handler = nil  // the delegate method returned, with an error: still an answer, a failed one
            failed = true
        }
        feedDevice(.callbackAnswered(app, id, handlerDuration: handler, handlerFailed: failed), into: &effects)
    }

    /// An answer with a restoration payload: the core hears it with the payload (kept only from
    /// `stateRestorationActivity`, and only up to `BrokerLimits.sceneRestorationBytes`).
    mutating func callbackAnswered(
        _ app: AppID, _ id: CallbackID, _ answer: CallbackAnswer, into effects: inout [BrokerEffect]
    ) {
        feedDevice(
            .callbackAnswered(
                app, id, handlerDuration: answer.handlerMs.map(Duration.init(clampingMilliseconds:)),
                handlerFailed: answer.handlerFailed, restoration: answer.restoration.flatMap { kept($0, from: app) },
                fetchResult: answer.result, presentation: answer.presentation),
            into: &effects)
    }

    /// A restoration payload within `BrokerLimits.sceneRestorationBytes`; `nil` (logged) for a larger one.
    @inline(never)
    private func kept(_ payload: String, from app: AppID) -> String? {
        guard payload.utf8.count > BrokerLimits.sceneRestorationBytes else { return payload }
        logger.notice("dropped a restoration payload over the limit", metadata: [
            "lifebus.app.id": "\(app)", "lifebus.restoration.bytes": "\(payload.utf8.count)"])
        return nil
    }

    private mutating func kill(_ app: AppID, reason: KillReason, into effects: inout [BrokerEffect]) {
        let session = sessions.session(for: app)
        let pid = device.pid(of: app) ?? 0
        if let route = killRoute(of: app, pid: pid) { effects.append(.kill(app, via: route, reason: reason)) }
        processKilled(app, pid: pid, reason: reason, into: &effects)
        if let session { effects.append(.close(session, .now)) }
        logger.info("killed", metadata: ["lifebus.app.id": "\(app)", "lifebus.app.pid": "\(pid)",
                                         "lifebus.kill.reason": "\(reason.rawValue)"])
    }

    /// Journals a transition in one pass from the core's integer times: its text (for the journal line and a
    /// `fire` answer) and the history window's slot are made from whole nanoseconds; the record of doubles only
    /// for observers.
    private mutating func record(_ transition: Transition, into effects: inout [BrokerEffect]) {
        let journaled = JournaledTransition(
            seq: journal.lastSequence + 1,
            app: transition.app.rawValue,
            pid: Self.knownPid(transition.pid),
            callback: transition.callback,
            cause: transition.cause.map { deliveries.events.cause($0) },
            from: transition.from,
            to: transition.to,
            firedNs: transition.fired.map(nanoseconds),
            sentNs: nanoseconds(transition.sent),
            answeredNs: transition.answered.map(nanoseconds),
            handlerNs: transition.handlerDuration?.signedNanoseconds,
            budgetNs: transition.budget.signedNanoseconds,
            outcome: transition.outcome,
            wallMs: wallMs,
            handlerFailed: transition.handlerFailed,
            scene: transition.scene.map {
                TransitionScene(scene: $0.ref.scene, session: $0.ref.session, from: $0.from, to: $0.to)
            }
        )
        // Encoded once, into the journal's lines, and copied from there into a `fire` answer.
        let observed: JSONValue? = sessions.observers.isEmpty ? .none : .some(journaled.record.json)
        appendToJournal(journaled, of: transition.app, cause: transition.cause, into: &effects)
        if let observed { notifyObservers(LifebusMethod.transition, observed, into: &effects) }
    }

    /// Answers the waits the input's state changes satisfy: each app that changed (or one of whose scenes did) is
    /// looked at once, in its state after the whole input (a state passed through within one input satisfies no
    /// wait).
    private mutating func answerWaitersOfChangedApps(into effects: inout [BrokerEffect]) {
        guard !deliveries.changedApps.isEmpty else { return }
        var changed = deliveries.takeChangedApps()
        for (position, app) in changed.enumerated() where !changed[..<position].contains(app) {
            answerWaiters(of: app, reached: device.state(of: app), into: &effects)
        }
        deliveries.returnChangedApps(&changed)
    }

    /// When the app entered its current state, in broker milliseconds.
    func sinceMilliseconds(of app: AppID) -> Double {
        deliveries.enteredAt[app].map(milliseconds) ?? 0
    }
}
