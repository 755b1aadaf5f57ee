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
