import LifebusJSON
public import LifebusLifecycle
import LifebusProtocol

/// Events that do not finish at once, and apps that do not answer at once: an in-process app the test holds (busy in
/// a long handler, as far as the broker can tell), the events it keeps waiting, and its release.
extension LifebusTestBus {
    /// Fires a device event (as `lifebus fire` does). With `waiting` (as `fire(_:)`), returns once every transition
    /// it caused completed, and throws `EventRejected` when the device refused it (`LaunchTimedOut` when a launch it
    /// asked for ran out its budget before the app's process connected). Without, returns as soon as the
    /// broker has taken the event in (the callbacks it caused answered, but for those of held apps) — so a later
    /// step comes after it — and the returned handle's `completion()` waits for the end and says whether it was
    /// refused. Fire without waiting to reach an app the test holds.
    ///
    /// ```swift
    /// try bus.hold(app)
    /// let ring = try await bus.fire(.call(.ring), waiting: false)   // willResignActive waits in the app
    /// try await bus.release(app)                                     // now its delegate runs, and answers
    /// try await ring.completion()
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event, as for ``fire(_:)``.
    ///   - waiting: Whether to wait for every transition the event caused (as ``fire(_:)``), or only until the broker
    ///     has taken it in.
    /// - Returns: The fired event, whose ``FiredEvent/completion()`` waits for its end.
    /// - Throws: Waiting, ``EventRejected`` or ``LaunchTimedOut`` as ``fire(_:)``; either way ``LifebusTestBusError``
    ///   when the broker does not answer.
    @discardableResult
    public func fire(_ event: ControllerEvent, waiting: Bool) async throws -> FiredEvent {
        let request: (String, JSONValue) = event.fireParams.map { (LifebusMethod.fire, $0.json) }
            ?? (LifebusMethod.reset, .object([:]))
        let fired = FiredEvent(event: event, answer: await transport.send(request.0, request.1), bus: self)
        if waiting {
            try await fired.completion()
        } else {
            try await refresh()
        }
        return fired
    }

    /// Waits for the end of `fired` and takes what it did into the timeline (see `FiredEvent.completion()`).
    func complete(_ fired: FiredEvent) async throws {
        do {
            _ = try await fired.answer.value()
        } catch let error as RPCError {
            if let timeout = LaunchTimedOut(error, event: fired.event) {
                try await refresh()
                throw timeout
            }
            guard let rejection = EventRejection(error) else { throw error }
            try await refresh()
            throw EventRejected(event: fired.event, reason: rejection.reason)
        }
        try await refresh()
    }

    /// From now on `app` answers no callback: each waits, its delegate method not yet called, until
    /// `release(_:)` — as an app still busy in a handler. The budgets still run (`advance(by:)` past one is the
    /// watchdog's business). An event that reaches a held app cannot finish: fire it with `waiting: false`.
    /// In-process apps only (`launch(_:delegate:)`).
    ///
    /// - Parameter app: An app launched with its delegate.
    /// - Throws: ``LifebusTestBusError`` for an installed app (it runs in a process of its own).
    public func hold(_ app: LifebusTestApp) throws {
        guard app.application != nil else {
            throw LifebusTestBusError("\(app.id) runs in a process of its own: the kit holds in-process apps only")
        }
        transport.hold(app.id)
    }

    /// Lets `app` run the callback it held (its delegate method runs now) and answer every later one at once again;
    /// returns once the device has settled — the events that waited for it finished (their `completion()` returns
    /// at once) — with the timeline holding what they did.
    ///
    /// - Parameter app: An app the test holds.
    /// - Throws: ``LifebusTestBusError`` when the broker does not answer.
    public func release(_ app: LifebusTestApp) async throws {
        await transport.release(app.id)
        try await refresh()
    }
}
