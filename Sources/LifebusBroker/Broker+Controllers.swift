import LifebusCore
import LifebusIO
import LifebusProtocol
import LifebusRPC

/// What controllers and observers ask: fire an event, the device's status, wait for a state, the history.
extension Broker {
    /// How long `wait` waits when the request names no timeout.
    static let defaultWaitTimeout: Duration = .seconds(30)

    func fire(_ params: FireParams, session: PeerSession, responder: RPCResponder) throws(RPCError) {
        try requireRoomForAnEvent(params.label, from: session)
        let id = events.begin(label: params.label, session: session.number, responder: params.wait ? responder : nil)
        if !params.wait {
            responder.succeed(FireResult(eventID: Int64(id.rawValue), event: params.label, completed: false).json)
        }
        feed(.fire(id, params.controllerEvent))
    }

    /// `reset`: back to a fresh device, carried out as an event (answered when its transitions completed).
    func reset(session: PeerSession, responder: RPCResponder) throws(RPCError) {
        try requireRoomForAnEvent("reset", from: session)
        feed(.fire(events.begin(label: "reset", session: session.number, responder: responder), .reset))
    }

    /// An event is refused when its controller has too many in flight, or while the journal fails (what waits to
    /// be written is retried first): nothing is injected that could not be recorded.
    private func requireRoomForAnEvent(_ label: String, from session: PeerSession) throws(RPCError) {
        guard journal.flush() else { throw journalUnavailable("\(label) was not fired") }
        let limit = BrokerLimits.firesInFlightPerController
        guard events.inFlight(session: session.number) < limit else {
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
            profile: configuration.profile.rawValue,
            locked: device.isLocked,
            call: device.call.wire,
            alert: device.alert?.wire,
            foreground: device.foregroundApp?.rawValue,
            apps: snapshots.map { snapshot in
                AppStatus(
                    id: snapshot.id.rawValue,
                    pid: pid(of: snapshot.id),
                    state: snapshot.state.wire,
                    sinceMs: sinceMilliseconds(of: snapshot.id),
                    connected: appSessions[snapshot.id] != nil
                )
            }
        )
    }

    func wait(_ params: WaitParams, session: PeerSession, responder: RPCResponder) throws(RPCError) {
        let app = AppID(params.app)
        let wanted = Set(params.states.map(\.core))
        let now = device.state(of: app)
        if wanted.contains(now) {
            responder.succeed(WaitResult(app: params.app, state: now.wire, sinceMs: sinceMilliseconds(of: app)).json)
            return
        }
        let limit = BrokerLimits.waitsPerConnection
        guard waiters.count(session: session.number) < limit else {
            throw .limitExceeded("waitsPerConnection", maximum: limit, "this connection has too many waits pending")
        }
        let timer: LoopTimer
        do {
            timer = try LoopTimer(loop: loop)
        } catch {
            throw .internalError("cannot arm the wait's timer: \(error)")
        }
        let number = waiters.add(session: session.number, app: app, states: wanted, responder: responder, timer: timer)
        let timeout = params.timeoutMs.map(Duration.init(clampingMilliseconds:)) ?? Self.defaultWaitTimeout
        timer.start(after: timeout) { [unowned self] in
            guard let waiter = self.waiters.take(number: number, app: app) else { return }
            let current = self.device.state(of: app)
            self.journal.flush()
            waiter.responder.fail(WaitTimeout(
                state: current.wire,
                transitions: self.journal.lastTransitions(of: app.rawValue, count: WaitTimeout.maxTransitions)
            ).error("\(app) is \(current.rawValue), not \(params.statesText), after \(DurationText.format(timeout))"))
        }
    }

    func history(_ params: HistoryParams) -> HistoryResult {
        journal.flush()
        return HistoryPage.select(journal.entries(app: params.app), params)
    }
}
