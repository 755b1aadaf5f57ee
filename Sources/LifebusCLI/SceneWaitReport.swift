import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// The text `lifebus wait APP/SCENE` prints from the broker's answer to a scene's `wait` (`SceneWaitResult`, or its
/// `lifebus.TimedOut`). Stateless; tolerant of what the broker sends (a missing member shows as `?`).
enum SceneWaitReport {
    static func reached(_ result: SceneWaitResult) -> String {
        let session = result.session.map { " (session \($0.number))" } ?? " (not connected)"
        let since = result.sinceMs.map { " (since \(TransitionFormatting.milliseconds($0)) ms)" } ?? ""
        return "\(result.app)/\(result.scene.number)\(session) is \(result.state.rawValue)\(since)"
    }

    /// The one line that says the wait timed out, and the scene's state then.
    static func timedOutLine(_ error: RPCError, params: SceneWaitParams) -> String {
        let current = WaitTimeout(error)?.sceneState?.rawValue ?? "?"
        return "timed out after \(TransitionFormatting.milliseconds(params.timeoutMs ?? 0)) ms waiting for "
            + "\(params.target) to be \(params.statesText); it is \(current)"
    }
}

extension WaitNotice {
    /// A scene's `wait` still unanswered: how long it waits, and the scene's state now (from `status`).
    static func sceneWait(_ params: SceneWaitParams, timeout: Duration, peer: RPCPeer, say: @escaping Say) {
        let waiting = "waiting up to \(DurationText.format(timeout)) for \(params.target) to be \(params.statesText)"
        peer.request(LifebusMethod.status, params: StatusParams(app: nil).json) { answer in
            let app = (try? answer.get()).flatMap { try? StatusResult(json: $0) }?.apps.first { $0.id == params.app }
            guard let app else {
                return say("\(waiting); \(params.app) has not connected to this broker — \(connectAdvice(params.app))")
            }
            let entry = app.scenes.first { $0.scene == params.scene }
            let now = entry.flatMap { entry in entry.state.map { "\($0.rawValue) (session \(entry.session.number))" } }
            say("\(waiting); it is \(now ?? "not connected (unattached)")")
        }
    }
}
