import LifebusExpectation
import LifebusIO
import LifebusLifecycle
import LifebusProtocol

/// The steps that name a scene: `wait: {app, scene, state}` and `expect: {scene: N, …}`. A scene's state is read from
/// `status` (its session's entry; `unattached` when no session has it connected), its callbacks from the transition
/// records that carry it (`scene` on the wire).
extension ScenarioRun {
    /// How often a scene `wait` asks for the status: the broker's `wait` names apps, not scenes.
    static let scenePoll = Duration.milliseconds(5)

    /// The state of `scene` of `app` now: `unattached` when it is not connected (or the app does not run).
    func sceneState(_ scene: SceneID, of app: String) -> Result<SceneState, RPCError> {
        session.status(app: app).map { status in
            status?.scenes.first { $0.scene == scene }?.state ?? .unattached
        }
    }

    /// Until `scene` of `app` is in one of `states`, in real time for at most `timeout`; the failure, or `nil`.
    func awaitScene(_ scene: SceneID, of app: String, in states: [SceneState], timeout: Duration) -> String? {
        let deadline = EventLoop.monotonicNanoseconds() + timeout.clampedNanoseconds
        let wanted = states.map(\.rawValue).joined(separator: "|")
        while true {
            let state: SceneState
            switch sceneState(scene, of: app) {
            case .failure(let error): return error.message
            case .success(let now): state = now
            }
            if states.contains(state) { return nil }
            guard EventLoop.monotonicNanoseconds() < deadline else {
                return "scene \(scene.number) of \(app) did not reach \(wanted) within "
                    + "\(DurationText.format(timeout)): it is \(state.rawValue)"
            }
            session.pause(Self.scenePoll)
        }
    }

    /// Checks `expectation` against the transitions of `scene` of `app` (and the app's marks) since the previous
    /// `expect` of that scene, and the scene's state now against `sceneStates`.
    mutating func checkScene(
        _ expectation: Expectation, sceneStates: [SceneState]?, app: String, scene: SceneID
    ) -> Result<[Expectation.Result], RPCError> {
        let key = "\(app)#\(scene.number)"
        let since = expectedUpTo[key] ?? startSeq
        let all: [JournalEntry]
        switch session.entries(after: since) {
        case .success(let entries): all = entries
        case .failure(let error): return .failure(error)
        }
        let entries = all.filter { entry in
            guard entry.app == app else { return false }
            if case .transition(let record) = entry { return record.scene?.scene == scene }
            return true
        }
        var results = expectation.check(entries, state: .notRunning)
        if let sceneStates {
            let state: SceneState
            switch sceneState(scene, of: app) {
            case .success(let now): state = now
            case .failure(let error): return .failure(error)
            }
            results.append(Expectation.Result(
                check: "scene \(scene.number) state", expected: sceneStates.map(\.rawValue).joined(separator: "|"),
                recorded: state.rawValue, passed: sceneStates.contains(state)))
        }
        expectedUpTo[key] = all.last?.seq ?? since
        return .success(results)
    }
}
