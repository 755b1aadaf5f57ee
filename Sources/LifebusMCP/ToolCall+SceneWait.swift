import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC
import LifebusTimeline

/// `wait_for_state` with `scene`: the broker's `wait` knows app states only, so the call watches as an observer —
/// the scene's state now from `status`, then each scene transition's `sceneTo` — until the scene is in the state,
/// or `timeoutMs` (default 10000) passes: `lifebus.TimedOut` with the scene's last known state.
extension ToolCall {
    func waitForScene(_ arguments: JSONObject) throws(RPCError) {
        guard let app = arguments["app"]?.stringValue, HelloParams.isValidAppID(app) else {
            throw RPCError.invalidParams(field: "app", "must be an app id")
        }
        guard let number = arguments["scene"]?.int64Value, number >= 1, number <= Int64(UInt32.max) else {
            throw RPCError.invalidParams(field: "scene", "must be a scene number (1, 2, …)")
        }
        guard let word = arguments["state"]?.stringValue, let state = SceneState(rawValue: word) else {
            let choices = SceneState.allCases.map(\.rawValue).joined(separator: ", ")
            throw RPCError.invalidParams(field: "state", "with scene, must be a scene state: \(choices)")
        }
        let timeoutMs = arguments["timeoutMs"]?.doubleValue ?? 10_000
        guard timeoutMs >= 0, timeoutMs <= WaitParams.maxTimeoutMs else {
            throw RPCError.invalidParams(field: "timeoutMs", "must be from 0 to \(Int(WaitParams.maxTimeoutMs))")
        }
        let scene = SceneID(UInt32(number))
        let target = "\(RPCError.echo(app))/\(number)"
        progressMessage = "waiting for \(target) to be \(state.rawValue)"
        progressTotalMs = timeoutMs
        startProgress()
        var known: SceneState?
        let saw: (SceneState, SceneSessionID, Double?) -> Void = { [self] now, session, sinceMs in
            known = now
            guard now == state else { return }
            var structured: JSONObject = [
                "app": .string(app), "scene": .integer(number), "session": .integer(Int64(session.number)),
                "state": .string(now.rawValue),
            ]
            if let sinceMs { structured.append("sinceMs", .double(sinceMs)) }
            let since = sinceMs.map { " (since \(TimelineText.format($0)) ms)" } ?? ""
            finish(ToolResult.success("\(target) (session \(session.number)) is \(now.rawValue)\(since)",
                                      structured: .object(structured)))
        }
        do throws(UVError) {
            let timer = try LoopTimer(loop: server.loop)
            onEnd { timer.close() }
            timer.start(after: .milliseconds(Int64(timeoutMs.rounded(.up)))) { [self] in
                let now = known.map(\.rawValue) ?? "not connected"
                finish(ToolResult.failure(RPCError(
                    .timedOut, "\(target) was not \(state.rawValue) within \(Int(timeoutMs)) ms; it is \(now)",
                    data: ["state": known.map { .string($0.rawValue) } ?? .null])))
            }
        } catch {
            throw RPCError.internalError("no timer for the wait: \(error)")
        }
        let onRequest: (RPCRequest, RPCResponder) -> Void = { request, _ in
            guard request.method == LifebusMethod.transition,
                  let record = try? TransitionRecord(json: request.params ?? .null),
                  record.app == app, let moved = record.scene, moved.scene == scene
            else { return }
            saw(moved.to, moved.session, record.sentMs)
        }
        withBroker(role: .observer, onRequest: onRequest) { [self] peer in
            peer.request(LifebusMethod.status, params: StatusParams(app: nil).json) { [self] answer in
                switch answer {
                case .failure(let error):
                    finish(ToolResult.failure(error))
                case .success(let value):
                    let status = try? StatusResult(json: value)
                    let entry = status?.apps.first { $0.id == app }?.scenes.first { $0.scene == scene }
                    if let entry, let now = entry.state { saw(now, entry.session, nil) }
                }
            }
        }
    }
}
