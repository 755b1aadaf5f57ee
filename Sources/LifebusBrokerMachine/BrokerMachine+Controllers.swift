import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// What controllers and observers ask: fire an event, the device's status, wait for a state, the history.
extension BrokerMachine {
    mutating func fire(
        _ params: FireParams, session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let label = params.label
        try requireRoomForAnEvent(label, from: session)
        let id = deliveries.events.begin(label: label, session: session, ticket: params.wait ? ticket : nil)
        if !params.wait {
            let result = FireResult(eventID: Int64(id.rawValue), event: label, completed: false)
            effects.append(.reply(ticket, .success(result.json)))
        }
        var event = params.controllerEvent
        // An installed app is started if it must be, as tapping its icon does: `launch`, which for a running app is
        // `activate` (lifecycle.md R42, R140).
        if case .activate(let app) = event, processes.installed[app] != nil { event = .launch(app) }
        feedDevice(.fire(id, event), into: &effects)
    }

    /// `reset`: back to a fresh device, carried out as an event (answered when its transitions completed).
    mutating func reset(session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]) throws(RPCError) {
        try requireRoomForAnEvent("reset", from: session)
        let id = deliveries.events.begin(label: "reset", session: session, ticket: ticket)
        feedDevice(.fire(id, .reset), into: &effects)
    }

    /// An event is refused when its controller has too many in flight, or while the journal fails (what waits to
    /// be written is retried first): nothing is injected that could not be recorded.
    private mutating func requireRoomForAnEvent(_ label: String, from session: SessionID) throws(RPCError) {
        guard journal.flush() else { throw journalUnavailable("\(label) was not fired") }
        let limit = BrokerLimits.firesInFlightPerController
        guard deliveries.events.inFlight(session: session) < limit else {
            throw .limitExceeded(
                "firesInFlightPerController", maximum: limit, "this controller has too many events in flight")
        }
    }

    func status(_ params: StatusParams) throws(RPCError) -> StatusResult {
        var snapshots = device.appSnapshots
        if let app = params.app {
            snapshots = snapshots.filter { $0.id.rawValue == app }
            guard !snapshots.isEmpty else { throw RPCError(.appNotFound, "no app \(app) is known") }
        }
        return StatusResult(
            profile: settings.device.profile,
            locked: device.isLocked,
            call: device.call,
            alert: device.alert,
            foreground: device.foregroundApp?.rawValue,
            apps: snapshots.map { snapshot in
                AppStatus(
                    id: snapshot.id.rawValue,
                    pid: livePid(of: snapshot.id),
                    state: snapshot.state,
                    sinceMs: sinceMilliseconds(of: snapshot.id),
                    connected: sessions.session(for: snapshot.id) != nil,
                    residentBytes: processes.resident[snapshot.id].map(Int64.init),
                    frozen: processes.isFrozen(snapshot.id),
                    launchBudgetMs: launchBudgetMilliseconds(snapshot),
                    scenes: device.sessions(of: snapshot.id).map {
                        SceneSessionEntry(
                            session: $0.session, scene: $0.scene, state: $0.state, restoration: $0.hasRestoration)
                    },
                    tasks: device.backgroundTasks(of: snapshot.id).map(taskEntry)
                )
            },
            pressure: processes.pressure,
            protectedDataAvailable: device.isProtectedDataAvailable
        )
    }

    /// A task as `status` shows it, its instants on the broker's clock.
    private func taskEntry(_ task: BackgroundTaskStatus) -> TaskStatusEntry {
        TaskStatusEntry(
            identifier: task.request.identifier, kind: task.request.kind,
            state: TaskStatusEntry.State(rawValue: task.state.rawValue) ?? .pending,
            earliestBeginMs: task.state == .pending ? task.request.earliestBegin.map(milliseconds) : nil,
            deadlineMs: task.deadline.map(milliseconds), waitingFor: task.waitingFor)
    }

    mutating func wait(
        _ params: WaitParams, session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = AppID(params.app)
        let wanted = Set(params.states)
        let current = device.state(of: app)
        if wanted.contains(current) {
            let result = WaitResult(app: params.app, state: current, sinceMs: sinceMilliseconds(of: app))
            effects.append(.reply(ticket, .success(result.json)))
            return
        }
        let limit = BrokerLimits.waitsPerConnection
        guard deliveries.waiters.count(session: session) < limit else {
            throw .limitExceeded("waitsPerConnection", maximum: limit, "this connection has too many waits pending")
        }
        let timeout = params.timeoutMs.map(Duration.init(clampingMilliseconds:)) ?? Self.defaultWaitTimeout
        let number = deliveries.waiters.add(
            session: session, app: app, states: wanted, ticket: ticket, statesText: params.statesText, timeout: timeout)
        clock.arm(.wait(number: number, app: app), at: now + max(timeout, .zero))
    }

    /// A `wait` whose time is up: answered with the state the app (and a scene's wait: the scene) is in and the
    /// app's last transitions.
    mutating func waitTimedOut(number: UInt64, app: AppID, into effects: inout [BrokerEffect]) {
        guard let waiter = deliveries.waiters.take(number: number, app: app) else { return }
        let current = device.state(of: app)
        let scene = waiter.scene.map { sceneState(of: app, $0.id) }
        journal.flush()
        let timeout = WaitTimeout(
            state: current,
            transitions: journal.lastTransitions(of: app.rawValue, count: WaitTimeout.maxTransitions),
            connected: sessions.session(for: app) != nil,
            sceneState: scene?.state
        )
        let waited = DurationText.format(waiter.timeout)
        let message = if let scene, let id = waiter.scene?.id {
            "\(app)/\(id.number) is \(scene.state.rawValue), not \(waiter.statesText), after \(waited)"
        } else {
            "\(app) is \(current.rawValue), not \(waiter.statesText), after \(waited)"
        }
        effects.append(.reply(waiter.ticket, .failure(timeout.error(message))))
    }

    /// Answers the waiters of `app` that wait for `state`, and its scene waiters whose scene is in their state.
    mutating func answerWaiters(of app: AppID, reached state: LifecycleState, into effects: inout [BrokerEffect]) {
        guard !deliveries.waiters.isEmpty else { return }
        let device = device  // read by the scene check while the waiters change
        let satisfied = deliveries.waiters.takeSatisfied(app: app, state: state) {
            Self.sceneState(of: app, $0, in: device).state
        }
        for waiter in satisfied {
            clock.cancel(.wait(number: waiter.number, app: app))
            let result = if let scene = waiter.scene {
                sceneWaitResult(app: app, scene: scene.id, reachedNow: true).json
            } else {
                WaitResult(app: app.rawValue, state: state, sinceMs: sinceMilliseconds(of: app)).json
            }
            effects.append(.reply(waiter.ticket, .success(result)))
        }
    }

    func history(_ params: HistoryParams) -> HistoryResult {
        journal.flush()
        return HistoryPage.select(journal.entries(app: params.app), params)
    }
}
