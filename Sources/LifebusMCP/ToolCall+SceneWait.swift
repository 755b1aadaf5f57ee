import LifebusJSON
import LifebusProtocol
import LifebusRPC
import LifebusTimeline

/// `wait_for_state` with `scene`: the broker's scene `wait` (`SceneWaitParams`) — answered when the scene is in the
/// scene state (a scene not connected is `unattached`), or `lifebus.TimedOut` with the scene's state once
/// `timeoutMs` (default 10000) passes.
extension ToolCall {
    func waitForScene(_ arguments: JSONObject) throws(RPCError) {
        var params = try SceneWaitParams(json: .object(arguments))
        params.timeoutMs = params.timeoutMs ?? 10_000
        let target = RPCError.echo(params.target)
        progressMessage = "waiting for \(target) to be \(params.statesText)"
        progressTotalMs = params.timeoutMs
        startProgress()
        ask(LifebusMethod.wait, params.json) { value in
            guard let reached = try? SceneWaitResult(json: value) else {
                return ToolResult.success("\(target) is \(params.statesText)", structured: value)
            }
            let session = reached.session.map { " (session \($0.number))" } ?? " (not connected)"
            let since = reached.sinceMs.map { " (since \(TimelineText.format($0)) ms)" } ?? ""
            return ToolResult.success("\(target)\(session) is \(reached.state.rawValue)\(since)", structured: value)
        }
    }
}
