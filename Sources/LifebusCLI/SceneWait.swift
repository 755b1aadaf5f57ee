import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifebusRPC

/// `lifebus wait APP/SCENE STATE`: waits, as an observer, until scene SCENE of APP is in one of the scene states.
/// The broker's `wait` knows app states only, so the CLI asks `status` (the scene's state now, from the app's
/// `scenes`) and watches the `transition` notifications (a scene transition's `scene` and `sceneTo`) from the moment
/// it is connected: a change between the two is not missed, since the notifications start before `status` is asked.
///
/// Bound to the command's loop (every method runs on it). Owns what it last knew of the scene; finishes once.
final class SceneWait {
    let app: String
    let scene: SceneID
    let states: [SceneState]
    let json: Bool
    private var finish: ((BrokerCall.Outcome) -> Void)?
    /// The scene's last known state and session (`nil`: not connected, as far as this wait knows).
    private var known: (state: SceneState, session: SceneSessionID)?
    private var done = false

    init(app: String, scene: SceneID, states: [SceneState], json: Bool) {
        self.app = app
        self.scene = scene
        self.states = states
        self.json = json
    }

    var target: String { "\(app)/\(scene.number)" }
    var statesText: String { states.map(\.rawValue).joined(separator: "|") }

    /// Starts: asks `status` for the scene's state now.
    func start(peer: RPCPeer, finish: @escaping (BrokerCall.Outcome) -> Void) {
        self.finish = finish
        if done { return finish(.success) }
        _ = peer.request(LifebusMethod.status, params: StatusParams(app: nil).json) { [self] answer in
            switch answer {
            case .failure(let error):
                finish(.refused(error))
            case .success(let value):
                do throws(RPCError) {
                    let status = try StatusResult(json: value)
                    let entry = status.apps.first { $0.id == app }?.scenes.first { $0.scene == scene }
                    if let entry, let state = entry.state { saw(state, session: entry.session, sinceMs: nil) }
                } catch {
                    finish(.refused(error))
                }
            }
        }
    }

    /// A notification the observer connection received.
    func received(_ request: RPCRequest) {
        guard request.method == LifebusMethod.transition,
              let record = try? TransitionRecord(json: request.params ?? .null),
              record.app == app, let moved = record.scene, moved.scene == scene
        else { return }
        saw(moved.to, session: moved.session, sinceMs: record.sentMs)
    }

    private func saw(_ state: SceneState, session: SceneSessionID, sinceMs: Double?) {
        guard !done else { return }
        known = (state, session)
        guard states.contains(state) else { return }
        done = true
        if json {
            var result: JSONObject = [
                "app": .string(app), "scene": .integer(Int64(scene.number)),
                "session": .integer(Int64(session.number)), "state": .string(state.rawValue),
            ]
            if let sinceMs { result.append("sinceMs", .double(sinceMs)) }
            print(JSONValue.object(result).jsonText)
        } else {
            let since = sinceMs.map { " (since \(TransitionFormatting.milliseconds($0)) ms)" } ?? ""
            print("\(target) (session \(session.number)) is \(state.rawValue)\(since)")
        }
        finish?(.success)
    }

    /// The timeout: says what the scene is (or that it is not connected) and ends the command with exit 1.
    func timedOut(afterMs timeoutMs: Double) -> BrokerCall.Outcome {
        done = true
        let now = known.map { "it is \($0.state.rawValue) (session \($0.session.number))" } ?? "it is not connected"
        let line = "timed out after \(TransitionFormatting.milliseconds(timeoutMs)) ms waiting for \(target) to be "
            + "\(statesText); \(now)"
        if !json { print(line) }
        var extra: JSONObject = ["app": .string(app), "scene": .integer(Int64(scene.number))]
        extra.append("state", known.map { .string($0.state.rawValue) } ?? .null)
        CLIErrorReport(json: json).write(name: "lifebus.TimedOut", line, extra: extra)
        return .conditionNotMet
    }
}
