public import LifebusLifecycle
public import LifebusProtocol

/// An expectation about one scene of an app (`lifebus expect APP --scene N`, the MCP `expect` tool's `scene`).
extension Expectation {
    /// Checks the scene's transitions in `entries` (the app's marks still count; its other transitions do not) and,
    /// with `states`, the scene's state `now` (`unattached` when it is not connected). `states` and
    /// `self.states` are separate: the app's state is not checked here.
    public func check(
        _ entries: [JournalEntry], scene: SceneID, states: [SceneState]?, now: SceneState
    ) -> [Result] {
        let ofScene = entries.filter { entry in
            if case .transition(let record) = entry { return record.scene?.scene == scene }
            return true
        }
        var scoped = self
        scoped.states = nil
        var results = scoped.isEmpty ? [] : scoped.check(ofScene, state: .notRunning)
        if let states {
            results.append(Result(
                check: "scene \(scene.number) state", expected: states.map(\.rawValue).joined(separator: "|"),
                recorded: now.rawValue, passed: states.contains(now)))
        }
        return results
    }
}
