import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// `wait` for a scene (`SceneWaitParams`, `Protocol/README.md` §11.3): answered when scene N of the app is in one of
/// the scene states, at once if it already is; the same timeout, limit and error rules as an app's wait (the
/// waiter shares `WaiterList` and its deadline). A scene not connected — not yet, or any more — is `unattached`
/// (as `expect --scene` reads it), so a wait for a scene still to come names a foreground or background state.
extension BrokerMachine {
    mutating func waitForScene(
        _ params: SceneWaitParams, session: SessionID, ticket: Ticket, into effects: inout [BrokerEffect]
    ) throws(RPCError) {
        let app = AppID(params.app)
        let wanted = Set(params.states)
        if wanted.contains(sceneState(of: app, params.scene).state) {
            let result = sceneWaitResult(app: app, scene: params.scene, reachedNow: false)
            effects.append(.reply(ticket, .success(result.json)))
            return
        }
        let limit = BrokerLimits.waitsPerConnection
        guard deliveries.waiters.count(session: session) < limit else {
            throw .limitExceeded("waitsPerConnection", maximum: limit, "this connection has too many waits pending")
        }
        let timeout = params.timeoutMs.map(Duration.init(clampingMilliseconds:)) ?? Self.defaultWaitTimeout
        let number = deliveries.waiters.add(
            session: session, app: app, states: [], scene: (params.scene, wanted), ticket: ticket,
            statesText: params.statesText, timeout: timeout)
        clock.arm(.wait(number: number, app: app), at: now + max(timeout, .zero))
    }

    /// Scene `scene` of `app`: its state and session while connected, `unattached` and no session when not.
    func sceneState(of app: AppID, _ scene: SceneID) -> (state: SceneState, session: SceneSessionID?) {
        Self.sceneState(of: app, scene, in: device)
    }

    /// Scene `scene` of `app` on `device` (`sceneState(of:_:)`).
    static func sceneState(
        of app: AppID, _ scene: SceneID, in device: Device
    ) -> (state: SceneState, session: SceneSessionID?) {
        guard let entry = device.sessions(of: app).first(where: { $0.scene == scene }), let state = entry.state else {
            return (.unattached, nil)
        }
        return (state, entry.session)
    }

    /// The answer to a scene's wait. `reachedNow`: the scene reached its state during the input just fed (its
    /// instant is `lifecycleNow` when the book has none: a disconnect); otherwise `sinceMs` is the book's, absent
    /// when the broker did not see the scene enter its state.
    func sceneWaitResult(app: AppID, scene: SceneID, reachedNow: Bool) -> SceneWaitResult {
        let (state, session) = sceneState(of: app, scene)
        let entered = deliveries.sceneEnteredAt[app]?[scene] ?? (reachedNow ? lifecycleNow : nil)
        return SceneWaitResult(
            app: app.rawValue, scene: scene, session: session, state: state, sinceMs: entered.map(milliseconds))
    }
}
